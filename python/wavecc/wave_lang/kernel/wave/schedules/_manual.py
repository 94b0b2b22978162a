"""schedules/_manual.py — Wave's manual schedules as wavecc takes them: each get_*_schedule() returns a schedule
object (wave_schedule.WaveSchedule) that wave_compile accepts and does not apply: wavecc schedules every kernel
itself (the results are the same), and wave_compile warns that the manual schedule was not applied."""
from .. import wave_schedule


def manual(name, what):
    def get(*args, **kwargs):
        def schedule():
            pass
        schedule.__name__, schedule.__doc__ = name, "Wave: %s (not applied by wavecc)." % what
        return wave_schedule.wave_schedule()(schedule)
    get.__name__ = "get_" + name
    get.__doc__ = "Wave's %s: a schedule object wave_compile accepts and does not apply." % what
    return get
