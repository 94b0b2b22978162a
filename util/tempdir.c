/* tempdir.c — private temporary folders that never outlive the process.
 *
 * tempdir_create makes a folder with mkdtemp under $TMPDIR (else /tmp) and
 * registers it; tempdir_remove deletes it with everything inside. A
 * registered folder is also removed if the process ends another way: exit()
 * from an error path (an atexit handler), or a fatal signal (SIGABRT from
 * die(), SIGSEGV, SIGBUS, SIGFPE, SIGILL, or SIGINT, SIGTERM, SIGHUP from
 * outside). The signal path uses only async-signal-safe calls (open,
 * getdents64 through the folder's descriptor, unlinkat, rmdir) on a path
 * stored in a static array, then restores the previous action and raises
 * the signal again, so the process still dies (or a sanitizer still
 * reports) as it would have. The removal is recursive; nothing runs a
 * shell. Creating and removing take a mutex (the registry is the
 * process's; the signal path takes none). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

enum { MAX_TEMPDIRS = 8 };
static char live[MAX_TEMPDIRS][PATH_MAX];
static volatile sig_atomic_t nlive_flag[MAX_TEMPDIRS];
static bool handlers_installed;
static const int fatal_signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[ARRAY_LEN(fatal_signals)];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Remove everything below the open folder `dfd`, then close it. Uses
 * getdents64 directly so it is safe in a signal handler. */
static void remove_below(int dfd, int depth)
{
	char buf[4096];
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof buf);
		if (n <= 0)
			break;
		bool removed = false;
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			unsigned char type = (unsigned char)buf[off + 18];
			const char *name = buf + off + 19;
			off += reclen;
			if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
				continue;
			if (type == DT_DIR && depth < 16) {
				int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub >= 0)
					remove_below(sub, depth + 1);
				removed |= unlinkat(dfd, name, AT_REMOVEDIR) == 0;
			} else {
				removed |= unlinkat(dfd, name, 0) == 0;
			}
		}
		if (removed) /* entries moved under us: read again from the start */
			lseek(dfd, 0, SEEK_SET);
	}
	close(dfd);
}

static void remove_tree(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		remove_below(dfd, 0);
	rmdir(dir);
}

static void remove_live(void)
{
	for (int i = 0; i < MAX_TEMPDIRS; i++)
		if (nlive_flag[i]) {
			nlive_flag[i] = 0;
			remove_tree(live[i]);
		}
}

static void on_fatal_signal(int sig)
{
	int e = errno;
	remove_live();
	for (size_t i = 0; i < ARRAY_LEN(fatal_signals); i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &previous[i], NULL);
	errno = e;
	raise(sig); /* delivered when this handler returns (the signal is blocked in it) */
}

static void install_handlers(void)
{
	if (handlers_installed)
		return;
	handlers_installed = true;
	atexit(remove_live);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_LEN(fatal_signals); i++) {
		struct sigaction old;
		sigaction(fatal_signals[i], NULL, &old);
		/* leave ignored signals ignored (e.g. SIGINT under nohup) */
		if (old.sa_handler == SIG_IGN)
			continue;
		previous[i] = old;
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

static const char *create(const char *prefix)
{
	int slot = 0;
	while (slot < MAX_TEMPDIRS && nlive_flag[slot])
		slot++;
	if (slot == MAX_TEMPDIRS) {
		errno = EMFILE;
		return NULL;
	}
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	int n = snprintf(live[slot], sizeof live[slot], "%s/%s-XXXXXX", base, prefix);
	if (n < 0 || (size_t)n >= sizeof live[slot]) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	install_handlers();
	if (!mkdtemp(live[slot]))
		return NULL;
	nlive_flag[slot] = 1;
	return live[slot];
}

const char *tempdir_create(const char *prefix)
{
	pthread_mutex_lock(&lock);
	const char *r = create(prefix);
	int e = errno;
	pthread_mutex_unlock(&lock);
	errno = e;
	return r;
}

void tempdir_remove(const char *dir)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_TEMPDIRS; i++)
		if (nlive_flag[i] && live[i] == dir) {
			nlive_flag[i] = 0;
			remove_tree(live[i]);
		}
	pthread_mutex_unlock(&lock);
}
