/* llvm_mc.c — find llvm-mc and run it on text held in memory.
 *
 * The assembler is a child process: the text goes to its stdin, the object
 * comes back on its stdout (`-o -`), diagnostics on stderr. One poll() loop
 * feeds stdin and drains both outputs at once, so neither side can block on a
 * full pipe whatever the sizes. SIGPIPE is ignored while a child runs (it
 * may exit before reading all its input; that shows as EPIPE and its exit
 * status tells why): the disposition is the process's, so the library's
 * threads share it, counted (the first to start a child ignores it, the
 * last to finish restores it). The pipes are close-on-exec, so a child
 * started by another thread at the same moment never holds this child's
 * pipe ends (which would keep this child's input open); the child is
 * started by posix_spawn (no copy of the host's page tables). No temporary
 * files are made. With $WAVECC_ASM_CACHE set, objects are kept in and
 * taken from that folder (asm_cache.c). The target is a target ID
 * (gfx942, gfx942:sramecc-, ...): the processor becomes -mcpu, the features
 * -mattr, which llvm-mc requires to agree with the text's .amdgcn_target;
 * a bare processor therefore takes the directive's features. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm.h"

static const char *const KNOWN_MCPU[] = {"gfx942", "gfx90a", "gfx940", "gfx941", "gfx950"};

/* A target ID is a processor with optional features, as in the
 * `.amdgcn_target` directive: gfx942, gfx942:sramecc-, gfx90a:sramecc+:xnack-.
 * The features become llvm-mc's -mattr (+sramecc, -xnack, ...), which must
 * agree with the directive or llvm-mc rejects the file. */
bool asm_split_target(const char *id, char *proc, size_t proc_len, char *mattr, size_t mattr_len)
{
	const char *colon = strchr(id, ':');
	size_t pn = colon ? (size_t)(colon - id) : strlen(id);
	bool known = false;
	for (size_t i = 0; i < ARRAY_LEN(KNOWN_MCPU); i++)
		known |= strlen(KNOWN_MCPU[i]) == pn && strncmp(id, KNOWN_MCPU[i], pn) == 0;
	if (!known || pn >= proc_len)
		return false;
	memcpy(proc, id, pn);
	proc[pn] = 0;
	size_t m = 0;
	mattr[0] = 0;
	bool seen[2] = {false, false};
	while (colon) {
		const char *f = colon + 1;
		colon = strchr(f, ':');
		size_t fn = colon ? (size_t)(colon - f) : strlen(f);
		if (fn < 2 || (f[fn - 1] != '+' && f[fn - 1] != '-'))
			return false;
		int which = fn - 1 == 7 && strncmp(f, "sramecc", 7) == 0 ? 0 : fn - 1 == 5 && strncmp(f, "xnack", 5) == 0 ? 1 : -1;
		if (which < 0 || seen[which])
			return false;
		seen[which] = true;
		int w = snprintf(mattr + m, mattr_len - m, "%s%c%.*s", m ? "," : "", f[fn - 1], (int)(fn - 1), f);
		if (w < 0 || (size_t)w >= mattr_len - m)
			return false;
		m += (size_t)w;
	}
	return true;
}

bool asm_known_mcpu(const char *mcpu)
{
	char proc[32], mattr[64];
	return asm_split_target(mcpu, proc, sizeof proc, mattr, sizeof mattr);
}

static const char *find_bytes(const char *h, size_t hn, const char *needle, size_t nn)
{
	for (size_t i = 0; i + nn <= hn; i++)
		if (h[i] == needle[0] && memcmp(h + i, needle, nn) == 0)
			return h + i;
	return NULL;
}

bool asm_text_target(const char *text, size_t len, char *id, size_t id_len)
{
	static const char dir[] = ".amdgcn_target";
	for (size_t i = 0; i + sizeof dir <= len;) {
		const char *hit = find_bytes(text + i, len - i, dir, sizeof dir - 1);
		if (!hit)
			return false;
		/* only at the start of a line (after blanks), not in a comment */
		size_t at = (size_t)(hit - text);
		size_t b = at;
		while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t'))
			b--;
		i = at + sizeof dir - 1;
		if (b > 0 && text[b - 1] != '\n')
			continue;
		const char *p = hit + sizeof dir - 1, *end = text + len;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p != '"')
			return false;
		const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
		if (!q)
			return false;
		/* amdgcn-amd-amdhsa--gfx942:sramecc- : the ID follows the last "--" */
		const char *s = p + 1;
		for (const char *r = p + 1; r + 1 < q; r++)
			if (r[0] == '-' && r[1] == '-')
				s = r + 2;
		size_t n = (size_t)(q - s);
		if (n == 0 || n >= id_len)
			return false;
		memcpy(id, s, n);
		id[n] = 0;
		return true;
	}
	return false;
}

static bool executable(const char *path)
{
	return access(path, X_OK) == 0;
}

/* Search $PATH for `name`; on success copy the full path into out. */
static bool on_path(const char *name, char *out, size_t n)
{
	const char *p = getenv("PATH");
	if (!p || !*p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		const char *e = strchr(p, ':');
		size_t dl = e ? (size_t)(e - p) : strlen(p);
		if (dl == 0)
			snprintf(out, n, "./%s", name);
		else
			snprintf(out, n, "%.*s/%s", (int)dl, p, name);
		if (executable(out))
			return true;
		p += dl + (e ? 1 : 0);
	}
	return false;
}

/* Oldest LLVM whose llvm-mc we accept for the processor. Besides knowing
 * the processor, it must take `.amdhsa_code_object_version 5` (LLVM 14
 * rejects it even for gfx90a); 17 is the first release with gfx942. */
static int min_llvm(const char *mcpu)
{
	return strcmp(mcpu, "gfx950") == 0 ? 20 : 17;
}

static int run_child(char *const argv[], const char *in, size_t in_len, Buf *out, Buf *errs);

/* Can this automatically found llvm-mc assemble for mcpu? Debian installs
 * /usr/bin/llvm-mc as a link into /usr/lib/llvm-N/, so N is read from the
 * resolved path without running anything; otherwise (ROCm, custom builds)
 * one probe run on empty input tells: an unknown processor is only a
 * warning ("not a recognized processor"), so stderr must stay empty. */
static bool supports(const char *path, const char *mcpu, Buf *notes)
{
	char real[4096];
	if (realpath(path, real)) {
		const char *p = strstr(real, "/llvm-");
		if (p && p[6] >= '0' && p[6] <= '9') {
			int major = atoi(p + 6);
			if (major < min_llvm(mcpu)) {
				buf_printf(notes, "skipped %s (LLVM %d, too old for %s)\n", path, major, mcpu);
				return false;
			}
			return true;
		}
	}
	char cpu[64];
	snprintf(cpu, sizeof cpu, "-mcpu=%s", mcpu);
	char *argv[] = {(char *)path, "-triple=amdgcn-amd-amdhsa", cpu, "-filetype=obj", "-o", "/dev/null", NULL};
	Buf out = {0}, errs = {0};
	int st = run_child(argv, "", 0, &out, &errs);
	bool ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && errs.len == 0;
	if (!ok)
		buf_printf(notes, "skipped %s (does not know %s)\n", path, mcpu);
	buf_free(&out);
	buf_free(&errs);
	return ok;
}

int llvm_mc_find(const char *explicit_path, const char *mcpu, LlvmMc *mc, Buf *msg)
{
	mc->skipped[0] = 0;
	if (explicit_path) {
		if (!executable(explicit_path)) {
			buf_printf(msg, "--llvm-mc %s: not an executable file\n", explicit_path);
			return -1;
		}
		snprintf(mc->path, sizeof mc->path, "%s", explicit_path);
		mc->how = "--llvm-mc";
		return 0;
	}
	const char *env = getenv("WAVECC_LLVM_MC");
	if (env && *env) {
		if (!executable(env)) {
			buf_printf(msg, "$WAVECC_LLVM_MC=%s: not an executable file\n", env);
			return -1;
		}
		snprintf(mc->path, sizeof mc->path, "%s", env);
		mc->how = "$WAVECC_LLVM_MC";
		return 0;
	}
	/* The order of the search; an entry starting with '/' is a fixed path,
	 * others are looked up on PATH. ROCm's copy comes before Debian's
	 * versioned names. */
	static const char *const order[] = {"llvm-mc", "/opt/rocm/llvm/bin/llvm-mc", "llvm-mc-19", "llvm-mc-20",
					    "llvm-mc-18", "llvm-mc-17", "/usr/lib/llvm-19/bin/llvm-mc", "llvm-mc-22",
					    "llvm-mc-21", "/usr/lib/llvm-22/bin/llvm-mc"};
	Buf notes = {0};
	for (size_t i = 0; i < ARRAY_LEN(order); i++) {
		bool found = order[i][0] == '/' ? (snprintf(mc->path, sizeof mc->path, "%s", order[i]),
						   executable(order[i]))
						: on_path(order[i], mc->path, sizeof mc->path);
		if (found && supports(mc->path, mcpu, &notes)) {
			mc->how = order[i][0] == '/' ? "default location" : "PATH";
			snprintf(mc->skipped, sizeof mc->skipped, "%s", notes.len ? notes.data : "");
			buf_free(&notes);
			return 0;
		}
	}
	buf_printf(msg, "cannot find an llvm-mc that knows %s: tried --llvm-mc, $WAVECC_LLVM_MC, llvm-mc on PATH, "
			"/opt/rocm/llvm/bin/llvm-mc, llvm-mc-19/-20/-18/-17 on PATH, /usr/lib/llvm-19/bin/llvm-mc, "
			"llvm-mc-22/-21 on PATH, /usr/lib/llvm-22/bin/llvm-mc (install llvm-19, llvm-22 for gfx950, or "
			"pass --llvm-mc PATH)\n%s",
		   mcpu, notes.len ? notes.data : "");
	buf_free(&notes);
	return -1;
}

/* Copy llvm-mc's stderr into msg, naming the source instead of "<stdin>". */
static void append_diagnostics(Buf *msg, const char *text, size_t len, const char *name)
{
	static const char tag[] = "<stdin>";
	size_t tl = sizeof tag - 1;
	for (size_t i = 0; i < len;) {
		if (name && i + tl <= len && memcmp(text + i, tag, tl) == 0) {
			buf_puts(msg, name);
			i += tl;
		} else {
			buf_putc(msg, text[i++]);
		}
	}
}

/* SIGPIPE ignored while any thread's child runs. */
static pthread_mutex_t sigpipe_lock = PTHREAD_MUTEX_INITIALIZER;
static int sigpipe_users;
static struct sigaction sigpipe_old;

static void sigpipe_ignore(void)
{
	pthread_mutex_lock(&sigpipe_lock);
	if (sigpipe_users++ == 0) {
		struct sigaction ign = {0};
		ign.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ign, &sigpipe_old);
	}
	pthread_mutex_unlock(&sigpipe_lock);
}

static void sigpipe_restore(void)
{
	pthread_mutex_lock(&sigpipe_lock);
	if (--sigpipe_users == 0)
		sigaction(SIGPIPE, &sigpipe_old, NULL);
	pthread_mutex_unlock(&sigpipe_lock);
}

/* Run argv[0] with `in` on stdin; collect stdout into out and stderr into
 * errs. Returns the wait status, or -1 if the process could not be started
 * (errno says why). posix_spawn, not fork: the host may be a large process
 * (a Python interpreter with torch loaded), whose page tables a fork would
 * copy for every assembly. */
static int run_child(char *const argv[], const char *in, size_t in_len, Buf *out, Buf *errs)
{
	int pin[2], pout[2], perr[2];
	if (pipe2(pin, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(pout, O_CLOEXEC) != 0) {
		close(pin[0]);
		close(pin[1]);
		return -1;
	}
	if (pipe2(perr, O_CLOEXEC) != 0) {
		close(pin[0]);
		close(pin[1]);
		close(pout[0]);
		close(pout[1]);
		return -1;
	}
	sigpipe_ignore();
	/* dup2 clears close-on-exec on 0, 1 and 2; the rest close at exec;
	 * SIGPIPE back to its default in the child */
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t dfl;
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	pid_t pid = -1;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc == 0) {
		if ((rc = posix_spawnattr_init(&attr)) == 0) {
			if (!(rc = posix_spawn_file_actions_adddup2(&fa, pin[0], 0)) &&
			    !(rc = posix_spawn_file_actions_adddup2(&fa, pout[1], 1)) &&
			    !(rc = posix_spawn_file_actions_adddup2(&fa, perr[1], 2)) &&
			    !(rc = posix_spawnattr_setsigdefault(&attr, &dfl)) &&
			    !(rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF)))
				rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ);
			posix_spawnattr_destroy(&attr);
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	if (rc != 0)
		pid = -1;
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	if (pid < 0) {
		close(pin[1]);
		close(pout[0]);
		close(perr[0]);
		sigpipe_restore();
		errno = rc;
		return -1;
	}
	fcntl(pin[1], F_SETFL, O_NONBLOCK);
	size_t sent = 0;
	int fin = pin[1];
	if (in_len == 0) {
		close(fin);
		fin = -1;
	}
	int open_out = 2;
	while (open_out > 0 || fin >= 0) {
		struct pollfd fds[3] = {{pout[0], POLLIN, 0}, {perr[0], POLLIN, 0}, {fin, POLLOUT, 0}};
		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < 2; k++) {
			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char tmp[65536];
			ssize_t n = read(fds[k].fd, tmp, sizeof tmp);
			if (n > 0) {
				buf_putn(k == 0 ? out : errs, tmp, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				close(fds[k].fd);
				if (k == 0)
					pout[0] = -1;
				else
					perr[0] = -1;
				open_out--;
			}
		}
		if (fin >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(fin, in + sent, in_len - sent);
			if (w > 0)
				sent += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == in_len) {
				close(fin);
				fin = -1;
			}
		}
	}
	if (fin >= 0)
		close(fin);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	sigpipe_restore();
	return st;
}

int asm_assemble(const AsmOptions *o, const char *text, size_t len, Buf *obj, Buf *msg)
{
	LlvmMc mc;
	char proc[32], mattr[64], file_id[128];
	const char *id = o->mcpu ? o->mcpu : "gfx942";
	if (!asm_split_target(id, proc, sizeof proc, mattr, sizeof mattr)) {
		buf_printf(msg, "unknown target '%s' (known: gfx942, gfx90a, gfx940, gfx941, gfx950, with optional "
				":sramecc+/- and :xnack+/-)\n", id);
		return -1;
	}
	/* A bare processor takes its features from the file's .amdgcn_target,
	 * which llvm-mc insists on matching. */
	char fproc[32], fattr[64];
	if (!mattr[0] && asm_text_target(text, len, file_id, sizeof file_id) &&
	    asm_split_target(file_id, fproc, sizeof fproc, fattr, sizeof fattr) && strcmp(fproc, proc) == 0)
		snprintf(mattr, sizeof mattr, "%s", fattr);
	if (llvm_mc_find(o->llvm_mc, proc, &mc, msg) != 0)
		return -1;
	if (o->verbose)
		fprintf(stderr, "%swavecc: assembling with %s (found via %s), -mcpu=%s%s%s\n", mc.skipped, mc.path, mc.how,
			proc, mattr[0] ? " -mattr=" : "", mattr);
	char cpu_arg[64], attr_arg[80];
	snprintf(cpu_arg, sizeof cpu_arg, "-mcpu=%s", proc);
	snprintf(attr_arg, sizeof attr_arg, "-mattr=%s", mattr);
	char *argv[] = {mc.path, "-triple=amdgcn-amd-amdhsa", cpu_arg, "-filetype=obj", "-o", "-", "-", NULL, NULL};
	if (mattr[0]) {
		argv[6] = attr_arg;
		argv[7] = "-";
	}
	const char *cache = getenv("WAVECC_ASM_CACHE");
	char key[33];
	bool keyed = cache && *cache && asm_cache_key(mc.path, argv, text, len, key);
	if (keyed && asm_cache_get(cache, key, obj)) {
		if (o->verbose)
			fprintf(stderr, "wavecc: the object from %s/%s.o (WAVECC_ASM_CACHE)\n", cache, key);
		return 0;
	}
	Buf out = {0}, errs = {0};
	int st = run_child(argv, text, len, &out, &errs);
	int ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && out.len > 0;
	if (!ok) {
		if (st == -1)
			buf_printf(msg, "cannot run %s: %s\n", mc.path, strerror(errno));
		else if (WIFSIGNALED(st))
			buf_printf(msg, "%s (found via %s) was killed by signal %d\n", mc.path, mc.how, WTERMSIG(st));
		else
			buf_printf(msg, "%s (found via %s) rejected the input (exit status %d):\n", mc.path, mc.how,
				   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		append_diagnostics(msg, errs.data, errs.len, o->source_name);
		buf_free(&out);
		buf_free(&errs);
		return -1;
	}
	if (errs.len) /* warnings */
		append_diagnostics(msg, errs.data, errs.len, o->source_name);
	else if (keyed)
		asm_cache_put(cache, key, out.data, out.len);
	buf_putn(obj, out.data, out.len);
	buf_free(&out);
	buf_free(&errs);
	return 0;
}
