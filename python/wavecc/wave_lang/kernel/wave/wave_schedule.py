"""Wave's wave_lang.kernel.wave.wave_schedule: manual schedules.

wavecc schedules kernels itself: a function decorated with wave_schedule() is
kept but never run, and wave_compile(options, kernel, schedule) compiles the
kernel with wavecc's own schedule (warning that the manual one is not
applied). The schedule ops (get_node_by_tag, pipeline, ...) exist only for
such functions' bodies, which do not run."""


class WaveSchedule:
    """A manual schedule: the decorated function, kept unrun."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "schedule")

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("wavecc does not run Wave's manual schedules (pass it to wave_compile, which "
                                  "compiles with wavecc's own schedule)")


def wave_schedule(*args, **kwargs):
    def decorator(fn):
        return WaveSchedule(fn)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return WaveSchedule(args[0])
    return decorator


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def op(*args, **kwargs):
        raise NotImplementedError("wave_schedule.%s: wavecc does not run Wave's manual schedules" % name)
    op.__name__ = name
    return op
