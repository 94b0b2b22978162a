/* mutate.c — structure-aware mutation fuzzer over the example kernels
 * (issue 9, item 9). Not a libFuzzer harness: a driver that edits the JSON of
 * the examples and runs the wavecc under test (the sanitizer build) on each
 * mutant, as a user would.
 *
 * Algorithm: for each iteration, pick an example, load it (jansson), apply one
 * to three mutations, write it to OUT/cur.json, then run
 *   wavecc compile cur.json -o OUT/cur.hsaco     (the code object and launch)
 *   wavecc run cur.json --seed N                 (compile, emulate, compare
 *                                                 with the interpreter; not
 *                                                 when compile rejected it)
 *   wavecc interp cur.json --random N            (the interpreter alone, as it
 *                                                 also runs what the compiler
 *                                                 rejects)
 * each with a time and a memory limit, and classify the outcome:
 *   bug   a signal or abort, a sanitizer report (ASan, UBSan, LeakSanitizer),
 *         "internal error", the memory limit, a FAIL line (the kernel
 *         disagrees with the interpreter), an exit status other than 0/1 for
 *         a well-formed command line, exit 0 without PASS, or a failed
 *         compile that left its output file behind;
 *   note  exit 1 with an error: message that is not located (no FILE: prefix
 *         and no node or JSON path); the time limit (a mutant may launch more
 *         work than the emulator does in that time under the sanitizers);
 *   fine  PASS / a written code object, or exit 1 with a located error.
 * Findings are deduplicated by a signature: the class, the command and the
 * report line with numbers blanked (a sanitizer report or internal error
 * keeps its source file:line; a FAIL keeps the example and the JSON paths
 * mutated). The first mutant of each signature is kept as
 * OUT/finding-<n>.json with a .txt saying what was mutated, the command to
 * reproduce it and the output.
 *
 * Mutations: a number in `symbols` or anywhere else set to an edge value (0,
 * 1, -1, odd, 2^k±1, 2^31, 2^32, 2^62, 2^63-1) or nudged (±1, ×2, /2); a
 * number inside a symbol's expression string changed the same way; a dtype
 * swapped for another (all names the format knows, and a bad one); an object
 * key or array element (an op, an argument, a constraint) dropped or
 * duplicated; a symbol renamed consistently (must still pass) or only where
 * it is defined (references break); a reference (memory, register, lhs, arg,
 * init_args, ...) pointed at another name or a missing one; a value replaced
 * by one of another JSON type.
 *
 * Usage: mutate --wavecc BIN [--seed S] [--count N] [--seconds T]
 *               [--timeout T] [--mem-limit MB] [--out DIR] [--strict] [-v]
 *               EXAMPLE.json...
 * Each command runs with a time limit (--timeout, 20 s) and a memory limit
 * (--mem-limit, 2048 MB: RLIMIT_AS, or for an ASan build its malloc_limit_mb
 * and hard_rss_limit_mb), so a mutant that asks for terabytes is reported
 * instead of taking the machine down.
 * Exit 0 unless --strict and a bug was found (then 1); 2 on bad usage. The
 * same seed and examples give the same mutants. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- options and random numbers ---- */

static const char *wavecc_bin, *out_dir = "build-asan/mutate";
static uint64_t rng_state = 1;
static long max_count = 200, max_seconds = 60, time_limit = 20, mem_limit_mb = 2048;
static bool sanitized; /* the wavecc under test is an ASan build */
static bool strict, verbose;

static uint64_t rnd(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static size_t rnd_below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* ---- a description of what was done to the mutant ---- */

static char what[4096], touched[1024];
static size_t what_len, touched_len;

/* the paths a mutant changed, without values: the signature of a wrong result */
static void touch(const char *path)
{
	if (touched_len < sizeof touched)
		touched_len += (size_t)snprintf(touched + touched_len, sizeof touched - touched_len, " %s", path);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (what_len < sizeof what)
		what_len += (size_t)vsnprintf(what + what_len, sizeof what - what_len, fmt, ap);
	va_end(ap);
}

/* ---- slots: every place in the document a mutation can edit ---- */

typedef struct {
	json_t *parent; /* object or array */
	const char *key; /* object: the key (owned by parent) */
	size_t index;    /* array: the index */
	char path[256];
} Slot;

static Slot *slots;
static size_t nslots, capslots;

static void add_slot(json_t *parent, const char *key, size_t index, const char *path)
{
	if (nslots == capslots) {
		capslots = capslots ? 2 * capslots : 256;
		slots = realloc(slots, capslots * sizeof *slots);
		if (!slots)
			abort();
	}
	Slot *s = &slots[nslots++];
	s->parent = parent;
	s->key = key;
	s->index = index;
	snprintf(s->path, sizeof s->path, "%s", path);
}

static void collect(json_t *v, const char *path)
{
	char sub[256];
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x)
		{
			snprintf(sub, sizeof sub, "%s.%s", path, k);
			add_slot(v, k, 0, sub);
			collect(x, sub);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x)
		{
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			add_slot(v, NULL, i, sub);
			collect(x, sub);
		}
	}
}

static json_t *slot_get(const Slot *s)
{
	return s->key ? json_object_get(s->parent, s->key) : json_array_get(s->parent, s->index);
}

static void slot_set(const Slot *s, json_t *v) /* steals v */
{
	if (s->key)
		json_object_set_new(s->parent, s->key, v);
	else
		json_array_set_new(s->parent, s->index, v);
}

static const char *slot_name(const Slot *s) /* the key, or the array's key */
{
	return s->key ? s->key : "";
}

/* A random slot whose value satisfies pred (NULL: any), or NULL. */
static Slot *pick_slot(bool (*pred)(const Slot *))
{
	size_t n = 0;
	for (size_t i = 0; i < nslots; i++)
		n += !pred || pred(&slots[i]);
	if (!n)
		return NULL;
	size_t k = rnd_below(n);
	for (size_t i = 0; i < nslots; i++)
		if ((!pred || pred(&slots[i])) && k-- == 0)
			return &slots[i];
	return NULL;
}

/* ---- values ---- */

static long long edge_value(long long old)
{
	static const long long edges[] = {0, 1, -1, 2, 3, 7, 63, 65, 127, 129, 255, 257, 1023, 1025, 65535, 65537,
		2147483647LL, 2147483648LL, 4294967295LL, 4294967296LL, 4611686018427387904LL, 9223372036854775807LL,
		-9223372036854775807LL - 1};
	switch (rnd_below(6)) {
	case 0: return old + 1;
	case 1: return old - 1;
	case 2: return old * 2;
	case 3: return old / 2 ? old / 2 : 1;
	default: return edges[rnd_below(ARRAY_LEN(edges))];
	}
}

static const char *const dtype_names[] = {"f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "u8",
	"u16", "u32", "u64", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3fn", "f8e5m2", "f15", ""};

static bool is_number(const Slot *s)
{
	json_t *v = slot_get(s);
	return json_is_integer(v) || json_is_real(v);
}

static bool is_symbol_value(const Slot *s)
{
	return !strncmp(s->path, ".symbols.", 9);
}

static bool is_symbol_number(const Slot *s) { return is_symbol_value(s) && json_is_integer(slot_get(s)); }

static bool has_digit_string(const Slot *s)
{
	const char *str = json_string_value(slot_get(s));
	return str && strpbrk(str, "0123456789");
}

static bool is_dtype(const Slot *s) { return !strcmp(slot_name(s), "dtype") && json_is_string(slot_get(s)); }

static bool is_container_member(const Slot *s) { (void)s; return true; }

static bool is_reference(const Slot *s)
{
	static const char *const keys[] = {"memory", "register", "lhs", "rhs", "acc", "arg", "init_args", "values",
		"iter_args", "address_space", "dim", "axis", "src", "index", "mask"};
	if (!json_is_string(slot_get(s)))
		return false;
	const char *k = slot_name(s);
	if (!s->key) { /* an array element: look at the array's own key */
		const char *br = strrchr(s->path, '[');
		static char parent_key[64];
		const char *dot = br;
		while (dot > s->path && dot[-1] != '.')
			dot--;
		snprintf(parent_key, sizeof parent_key, "%.*s", (int)(br - dot), dot);
		k = parent_key;
	}
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

/* ---- the mutations ---- */

static bool mut_number(json_t *doc)
{
	(void)doc;
	Slot *s = rnd_below(3) ? pick_slot(is_symbol_number) : NULL;
	if (!s)
		s = pick_slot(is_number);
	if (!s)
		return false;
	json_t *v = slot_get(s);
	long long old = json_is_integer(v) ? (long long)json_integer_value(v) : (long long)json_real_value(v);
	long long nv = edge_value(old);
	touch(s->path);
	note("number %s: %lld -> %lld; ", s->path, old, nv);
	slot_set(s, json_integer(nv));
	return true;
}

/* A number in an expression starts at a digit not inside a name. */
static bool number_starts(const char *str, const char *p)
{
	return isdigit((unsigned char)*p) && (p == str || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
}

static bool mut_number_in_string(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(has_digit_string);
	if (!s)
		return false;
	const char *str = json_string_value(slot_get(s));
	size_t n = 0;
	for (const char *p = str; *p; p++)
		n += number_starts(str, p);
	if (!n)
		return false;
	size_t k = rnd_below(n);
	char buf[1024];
	size_t o = 0;
	for (const char *p = str; *p && o < sizeof buf - 32; p++) {
		if (number_starts(str, p) && k-- == 0) {
			long long old = strtoll(p, NULL, 10);
			while (isdigit((unsigned char)p[1]))
				p++;
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%lld", edge_value(old));
			continue;
		}
		buf[o++] = *p;
	}
	buf[o] = 0;
	touch(s->path);
	note("expression %s: \"%s\" -> \"%s\"; ", s->path, str, buf);
	slot_set(s, json_string(buf));
	return true;
}

static bool mut_dtype(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(is_dtype);
	if (!s)
		return false;
	const char *nv = dtype_names[rnd_below(ARRAY_LEN(dtype_names))];
	touch(s->path);
	note("dtype %s: %s -> %s; ", s->path, json_string_value(slot_get(s)), nv);
	slot_set(s, json_string(nv));
	return true;
}

static bool mut_drop(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(is_container_member);
	if (!s)
		return false;
	touch(s->path);
	note("drop %s; ", s->path);
	if (s->key)
		json_object_del(s->parent, s->key);
	else
		json_array_remove(s->parent, s->index);
	return true;
}

static bool is_array_member(const Slot *s) { return !s->key; }

static bool mut_duplicate(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(is_array_member);
	if (!s)
		return false;
	touch(s->path);
	note("duplicate %s; ", s->path);
	json_array_insert_new(s->parent, s->index, json_deep_copy(slot_get(s)));
	return true;
}

/* Replace whole-word occurrences of `from` by `to` in every string. */
static void rename_everywhere(json_t *v, const char *from, const char *to)
{
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		void *tmp;
		json_object_foreach_safe(v, tmp, k, x)
		{
			rename_everywhere(x, from, to);
			if (!strcmp(k, from)) {
				json_object_set(v, to, x);
				json_object_del(v, k);
			}
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) rename_everywhere(x, from, to);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char buf[2048];
		size_t o = 0, fl = strlen(from), tl = strlen(to);
		for (const char *p = s; *p && o + tl + 2 < sizeof buf;) {
			if (!strncmp(p, from, fl) && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
			    !(isalnum((unsigned char)p[fl]) || p[fl] == '_')) {
				memcpy(buf + o, to, tl);
				o += tl;
				p += fl;
			} else
				buf[o++] = *p++;
		}
		buf[o] = 0;
		json_string_set(v, buf);
	}
}

static bool mut_rename_symbol(json_t *doc)
{
	json_t *syms = json_object_get(doc, "symbols");
	size_t n = json_object_size(syms);
	if (!n)
		return false;
	size_t k = rnd_below(n);
	const char *key;
	json_t *x = NULL;
	json_object_foreach(syms, key, x) if (k-- == 0) break;
	char from[128], to[160];
	snprintf(from, sizeof from, "%s", key);
	static const char *const names[] = {"%s_r", "x", "M", "N", "K", "BLOCK_M", "$T0", "", "1", "a", "floor"};
	snprintf(to, sizeof to, names[rnd_below(ARRAY_LEN(names))], from);
	if (!strcmp(from, to))
		return false;
	if (rnd_below(2)) {
		touch("rename");
		note("rename symbol %s -> %s everywhere; ", from, to);
		rename_everywhere(doc, from, to);
	} else {
		touch("rename-def");
		note("rename symbol %s -> %s in symbols only; ", from, to);
		json_object_set(syms, to, x);
		json_object_del(syms, from);
	}
	return true;
}

static bool mut_reference(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(is_reference);
	if (!s)
		return false;
	Slot *o = pick_slot(is_reference);
	const char *nv = rnd_below(3) && o ? json_string_value(slot_get(o)) : "missing_name";
	char keep[256];
	snprintf(keep, sizeof keep, "%s", nv);
	touch(s->path);
	note("reference %s: %s -> %s; ", s->path, json_string_value(slot_get(s)), keep);
	slot_set(s, json_string(keep));
	return true;
}

static bool mut_type(json_t *doc)
{
	(void)doc;
	Slot *s = pick_slot(NULL);
	if (!s)
		return false;
	json_t *nv;
	const char *desc;
	switch (rnd_below(6)) {
	case 0: nv = json_null(); desc = "null"; break;
	case 1: nv = json_string("1"); desc = "\"1\""; break;
	case 2: nv = json_array(); desc = "[]"; break;
	case 3: nv = json_object(); desc = "{}"; break;
	case 4: nv = json_real(0.5); desc = "0.5"; break;
	default: nv = json_true(); desc = "true"; break;
	}
	touch(s->path);
	note("retype %s -> %s; ", s->path, desc);
	slot_set(s, nv);
	return true;
}

typedef bool (*Mutation)(json_t *doc);

/* numbers in symbols are the most productive, so they come up most often */
static const Mutation mutations[] = {mut_number, mut_number, mut_number, mut_number, mut_number_in_string,
	mut_number_in_string, mut_dtype, mut_dtype, mut_drop, mut_duplicate, mut_rename_symbol, mut_reference,
	mut_type};

static void mutate(json_t *doc)
{
	int n = 1 + (int)rnd_below(3);
	for (int i = 0; i < n; i++) {
		nslots = 0;
		collect(doc, "");
		for (int tries = 0; tries < 8; tries++)
			if (mutations[rnd_below(ARRAY_LEN(mutations))](doc))
				break;
	}
}

/* ---- running wavecc ---- */

typedef struct {
	int status; /* exit status, 128+signal, or -1 for the time limit */
	char *out, *err;
} Outcome;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return strdup("");
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap) {
			if (cap > (64u << 20))
				break;
			b = realloc(b, cap *= 2);
		}
	}
	fclose(f);
	if (!b)
		abort();
	b[n] = 0;
	return b;
}

static Outcome run(char *const argv[])
{
	char op[1024], ep[1024];
	snprintf(op, sizeof op, "%s/cur.out", out_dir);
	snprintf(ep, sizeof ep, "%s/cur.err", out_dir);
	Outcome o = {0};
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		setpgid(0, 0);
		int fo = open(op, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0)
			_exit(125);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		/* a mutant's tile of 2^31 made compile take 24 GB: bound the
		 * memory (ASan reserves terabytes of address space for its shadow,
		 * so an ASan build is bounded by its own options instead) */
		if (!sanitized) {
			struct rlimit rl = {(rlim_t)mem_limit_mb << 20, (rlim_t)mem_limit_mb << 20};
			setrlimit(RLIMIT_AS, &rl);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int st;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= time_limit) {
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			o.status = -1;
			break;
		}
		struct timespec nap = {0, 5000000};
		nanosleep(&nap, NULL);
	}
	if (o.status != -1)
		o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	o.out = slurp(op);
	o.err = slurp(ep);
	return o;
}

/* ---- classification ---- */

typedef struct {
	const char *cls; /* NULL: fine */
	bool bug;        /* false: a note */
	char line[512];  /* the report line the signature is built from */
} Verdict;

static void first_line(char *dst, size_t n, const char *s)
{
	size_t i = 0;
	while (s[i] && s[i] != '\n' && i + 1 < n) {
		dst[i] = s[i];
		i++;
	}
	dst[i] = 0;
}

static const char *find_line(const char *s, const char *needle)
{
	const char *p = strstr(s, needle);
	if (!p)
		return NULL;
	while (p > s && p[-1] != '\n')
		p--;
	return p;
}

typedef enum { CMD_COMPILE, CMD_RUN, CMD_INTERP } Cmd;
static const char *const cmd_names[] = {"compile", "run", "interp"};

static Verdict classify(const Outcome *o, const char *file, Cmd cmd, const char *output)
{
	Verdict v = {0};
	const char *p;
	v.bug = true;
	if ((p = find_line(o->err, "SUMMARY: ")) || (p = find_line(o->err, "runtime error:"))) {
		v.cls = strstr(o->err, "LeakSanitizer") ? "leak" : "sanitizer";
		first_line(v.line, sizeof v.line, p);
	} else if ((p = find_line(o->err, "hard rss limit exhausted"))) {
		v.cls = "memory limit"; /* resource limits are located errors, never this */
		first_line(v.line, sizeof v.line, p);
	} else if ((p = find_line(o->err, "internal error"))) {
		v.cls = "internal error";
		first_line(v.line, sizeof v.line, p);
	} else if (o->status == -1) {
		/* a note: a mutant may ask for a launch too large for the emulator
		 * under the sanitizers; the reproducer says whether it is a hang */
		v.cls = "time limit";
		v.bug = false;
	} else if (o->status > 128) {
		v.cls = "signal";
		snprintf(v.line, sizeof v.line, "signal %d", o->status - 128);
	} else if ((p = find_line(o->out, "FAIL "))) {
		v.cls = "wrong result";
		first_line(v.line, sizeof v.line, p);
	} else if (o->status == 0) {
		if (cmd == CMD_RUN && !strstr(o->out, "PASS"))
			v.cls = "exit 0 without PASS";
		else if (cmd == CMD_COMPILE && access(output, F_OK) != 0)
			v.cls = "exit 0 without output";
	} else if (o->status == 1) {
		if (cmd == CMD_COMPILE && access(output, F_OK) == 0) {
			v.cls = "partial output";
		} else if (!(p = find_line(o->err, "error:"))) {
			v.cls = "exit 1 without error:";
		} else if (!strstr(o->err, file) && !strstr(o->err, "%") && !strstr(o->err, "node ") &&
			   !strstr(o->err, " op ")) {
			v.cls = "unlocated error";
			v.bug = false;
			first_line(v.line, sizeof v.line, p);
		}
	} else {
		v.cls = "exit status";
		snprintf(v.line, sizeof v.line, "exit %d", o->status);
	}
	return v;
}

/* The signature: class, command, the report line without numbers or paths. */
static void signature(char *dst, size_t n, const Verdict *v, const char *cmd, const char *example)
{
	size_t o = (size_t)snprintf(dst, n, "%s | %s | ", v->cls, cmd);
	const char *s = v->line;
	/* the source site of a sanitizer report or internal error is kept
	 * ("passes/graph/indices.c:163:23: runtime error", "internal error at
	 * util/arena.c:12:"): one class per site; other numbers are blanked */
	const char *keep = strstr(s, ": runtime error");
	const char *ie = strstr(s, "internal error at ");
	if (!keep && ie && (ie = strchr(ie + 18, ':'))) {
		while (isdigit((unsigned char)ie[1]))
			ie++;
		keep = ie + 1;
	}
	for (; *s && o + 2 < n; s++) {
		if (keep && s < keep) {
			dst[o++] = *s;
		} else if (isdigit((unsigned char)*s)) {
			dst[o++] = '#';
			while (isdigit((unsigned char)s[1]) || s[1] == '.')
				s++;
		} else
			dst[o++] = *s;
	}
	dst[o] = 0;
	/* a FAIL names the buffer and sizes: keep only the class and command */
	if (!strcmp(v->cls, "wrong result"))
		snprintf(dst, n, "%s | %s | %s:%s", v->cls, cmd, example, touched);
}

typedef struct {
	char sig[768];
	long count;
	int id;
	bool bug;
} Finding;

static Finding findings[512];
static int nfindings;

static void save_finding(const Verdict *v, const char *sig, const char *args, const char *example,
			 const Outcome *o, const char *mutant)
{
	char cmdline[2048];
	for (int i = 0; i < nfindings; i++)
		if (!strcmp(findings[i].sig, sig)) {
			findings[i].count++;
			return;
		}
	if (nfindings == (int)ARRAY_LEN(findings))
		return;
	Finding *f = &findings[nfindings];
	snprintf(f->sig, sizeof f->sig, "%s", sig);
	f->count = 1;
	f->id = nfindings;
	f->bug = v->bug;
	nfindings++;
	char path[1200];
	snprintf(path, sizeof path, "%s/finding-%d.json", out_dir, f->id);
	/* args is "CMD OPTIONS": the reproducer is "wavecc CMD FINDING.json OPTIONS" */
	const char *sp = strchr(args, ' ');
	snprintf(cmdline, sizeof cmdline, "wavecc %.*s %s%s", sp ? (int)(sp - args) : (int)strlen(args), args, path,
		 sp ? sp : "");
	FILE *dst = fopen(path, "w");
	if (dst) {
		fputs(mutant, dst);
		fclose(dst);
	}
	snprintf(path, sizeof path, "%s/finding-%d.txt", out_dir, f->id);
	dst = fopen(path, "w");
	if (dst) {
		fprintf(dst, "class: %s (%s)\nsignature: %s\nfrom: %s\nmutations: %s\ncommand: %s\nstatus: %d\n"
			     "--- stdout\n%.4000s\n--- stderr\n%.8000s\n",
			v->cls, v->bug ? "bug" : "note", sig, example, what, cmdline, o->status, o->out, o->err);
		fclose(dst);
	}
	printf("%s #%d: %s\n  from %s: %s\n  reproduce: %s\n", v->bug ? "BUG" : "note", f->id, sig, example, what,
	       cmdline);
	fflush(stdout);
}

/* ---- main loop ---- */

static char *dump(json_t *doc)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!s)
		abort();
	return s;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "mutate: cannot write %s: %s\n", path, strerror(errno));
		exit(2);
	}
}

/* True if the file holds the bytes of `needle` (an ASan build holds
 * "__asan_init"). */
static bool file_contains(const char *path, const char *needle)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t nl = strlen(needle), have = 0;
	char buf[1 << 16];
	bool found = false;
	size_t r;
	while (!found && (r = fread(buf + have, 1, sizeof buf - have, f)) > 0) {
		size_t n = have + r;
		for (size_t i = 0; i + nl <= n && !found; i++)
			found = !memcmp(buf + i, needle, nl);
		have = n < nl ? n : nl - 1; /* keep a tail that may start a match */
		memmove(buf, buf + n - have, have);
	}
	fclose(f);
	return found;
}

static void usage(void)
{
	fprintf(stderr, "usage: mutate --wavecc BIN [--seed S] [--count N] [--seconds T] [--timeout T] [--mem-limit MB]\n"
			"              [--out DIR] [--strict] [-v] EXAMPLE.json...\n");
	exit(2);
}

static long num_arg(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno || *end || v < 0)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	const char *examples[256];
	int nex = 0;
	uint64_t seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (!strcmp(a, "--wavecc") && has)
			wavecc_bin = argv[++i];
		else if (!strcmp(a, "--seed") && has)
			seed = (uint64_t)num_arg(argv[++i]);
		else if (!strcmp(a, "--count") && has)
			max_count = num_arg(argv[++i]);
		else if (!strcmp(a, "--seconds") && has)
			max_seconds = num_arg(argv[++i]);
		else if (!strcmp(a, "--timeout") && has)
			time_limit = num_arg(argv[++i]);
		else if (!strcmp(a, "--mem-limit") && has)
			mem_limit_mb = num_arg(argv[++i]);
		else if (!strcmp(a, "--out") && has)
			out_dir = argv[++i];
		else if (!strcmp(a, "--strict"))
			strict = true;
		else if (!strcmp(a, "-v"))
			verbose = true;
		else if (a[0] == '-' || nex == (int)ARRAY_LEN(examples))
			usage();
		else
			examples[nex++] = a;
	}
	if (!wavecc_bin || !nex)
		usage();
	rng_state = seed;
	mkdir(out_dir, 0755);
	/* leak detection on in the runs (the sanitizer build's default is kept
	 * otherwise); reports go to stderr, where classify() reads them */
	sanitized = file_contains(wavecc_bin, "__asan_init");
	char asan[256];
	snprintf(asan, sizeof asan,
		 "detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:malloc_limit_mb=%ld:hard_rss_limit_mb=%ld",
		 mem_limit_mb, mem_limit_mb);
	setenv("ASAN_OPTIONS", asan, 0);
	setenv("UBSAN_OPTIONS", "print_stacktrace=1", 0);

	json_t *docs[256];
	for (int i = 0; i < nex; i++) {
		json_error_t e;
		docs[i] = json_load_file(examples[i], JSON_PRESERVE_ORDER, &e);
		if (!docs[i]) {
			fprintf(stderr, "mutate: %s:%d: %s\n", examples[i], e.line, e.text);
			return 2;
		}
	}
	char mutant_path[1024], hsaco[1024];
	snprintf(mutant_path, sizeof mutant_path, "%s/cur.json", out_dir);
	snprintf(hsaco, sizeof hsaco, "%s/cur.hsaco", out_dir);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long n = 0, fine = 0, bugs = 0, notes = 0;
	for (; n < max_count; n++) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= max_seconds)
			break;
		int ex = (int)rnd_below((size_t)nex);
		json_t *doc = json_deep_copy(docs[ex]);
		what_len = touched_len = 0;
		what[0] = touched[0] = 0;
		mutate(doc);
		char *text = dump(doc);
		json_decref(doc);
		write_text(mutant_path, text);
		char seedarg[32];
		snprintf(seedarg, sizeof seedarg, "%u", (unsigned)(rnd() % 1000));
		const char *mcpu = rnd_below(4) ? "gfx942" : "gfx90a";
		for (Cmd cmd = CMD_COMPILE; cmd <= CMD_INTERP; cmd++) {
			unlink(hsaco);
			char launch[1100];
			snprintf(launch, sizeof launch, "%s/cur.launch.json", out_dir);
			unlink(launch);
			char *argvs[][8] = {
				{(char *)wavecc_bin, "compile", mutant_path, "-o", hsaco, "--mcpu", (char *)mcpu, NULL},
				{(char *)wavecc_bin, "run", mutant_path, "--seed", seedarg, "--mcpu", (char *)mcpu, NULL},
				{(char *)wavecc_bin, "interp", mutant_path, "--random", seedarg, NULL},
			};
			Outcome o = run(argvs[cmd]);
			Verdict v = classify(&o, mutant_path, cmd, hsaco);
			if (verbose)
				printf("%ld %s: %s status %d: %s\n", n, cmd_names[cmd], what, o.status, v.cls ? v.cls : "fine");
			if (v.cls) {
				char sig[768], args[256];
				signature(sig, sizeof sig, &v, cmd_names[cmd], examples[ex]);
				if (cmd == CMD_COMPILE)
					snprintf(args, sizeof args, "compile -o x.hsaco --mcpu %s", mcpu);
				else if (cmd == CMD_RUN)
					snprintf(args, sizeof args, "run --seed %s --mcpu %s", seedarg, mcpu);
				else
					snprintf(args, sizeof args, "interp --random %s", seedarg);
				save_finding(&v, sig, args, examples[ex], &o, text);
				if (v.bug)
					bugs++;
				else
					notes++;
			} else
				fine++;
			bool compiled = o.status == 0;
			free(o.out);
			free(o.err);
			/* a mutant that does not compile is not run (run would say the
			 * same), but the interpreter still executes it */
			if (cmd == CMD_COMPILE && !compiled && !v.cls)
				cmd = CMD_RUN;
		}
		free(text);
	}
	int nbug = 0, nnote = 0;
	for (int i = 0; i < nfindings; i++)
		findings[i].bug ? nbug++ : nnote++;
	printf("mutate: seed %llu, %ld mutants, %ld fine runs, %ld bug runs in %d classes, %ld notes in %d classes "
	       "(findings in %s)\n",
	       (unsigned long long)seed, n, fine, bugs, nbug, notes, nnote, out_dir);
	for (int i = 0; i < nfindings; i++)
		printf("  %s #%d x%ld: %s\n", findings[i].bug ? "BUG " : "note", findings[i].id, findings[i].count,
		       findings[i].sig);
	for (int i = 0; i < nex; i++)
		json_decref(docs[i]);
	free(slots);
	return strict && nbug ? 1 : 0;
}
