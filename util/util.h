/* util.h — infrastructure shared by every stage of wavecc.
 *
 * Memory: objects live in arenas (one per kernel, one per CLI job); nothing is
 * freed individually. Arena memory is zeroed. Growable arrays (Vec) live on the
 * heap and are freed with vec_free, or in an arena with vec_push_arena.
 *
 * Errors, two paths:
 *   - bad input: report with a location through a Diag (collects messages, the
 *     caller decides the exit status, and only cli/ exits: cli/usage.c);
 *   - compiler bugs: die() aborts with file:line; never used for user input.
 */
#ifndef WAVECC_UTIL_H
#define WAVECC_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h> /* vec_free uses free() */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

/* ---- diag.c ---- */

/* A source location; line and col are 1-based, 0 when unknown. */
typedef struct Loc {
	const char *file;
	int line, col;
} Loc;
/* Where the program that made a kernel graph made one of its ops (the op's
 * "loc", docs/kernel-format.md): a file, a 1-based line and column (0:
 * not known). */
typedef struct SrcLoc {
	const char *file;
	int line, col;
} SrcLoc;

/* Collected diagnostics. Messages are printed to `out` (stderr by default)
 * as they arrive, formatted "file:line:col: error: msg"; a message about one
 * place of a JSON document (diag_error_path) prints "path: msg" after the
 * severity. When `sink` is set, every message printed is also handed to it
 * as data (the library's diagnostics, driver/api_call.c), with the hint
 * given by diag_hint (never printed: the message says it too, in words). */
typedef enum DiagSeverity { DIAG_ERROR, DIAG_WARNING } DiagSeverity;
typedef struct DiagInfo {
	DiagSeverity severity;
	Loc loc;
	const char *path; /* JSON path, or NULL */
	const char *hint; /* a fix, or NULL */
	const char *msg;  /* without location, severity and path */
	const char *text; /* the whole message as printed, without the newline */
} DiagInfo;
typedef struct Diag {
	FILE *out;
	int nerrors;
	int nwarnings;
	int max_errors; /* stop printing after this many (0: no limit) */
	void (*sink)(void *ctx, const DiagInfo *info);
	void *sink_ctx;
	char hint[256]; /* diag_hint's, for the next message */
} Diag;

void diag_init(Diag *d);
void diag_error(Diag *d, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_verror(Diag *d, Loc loc, const char *fmt, va_list ap);
void diag_warning(Diag *d, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The printf format of a message's location prefix, to be given the
 * arguments (loc.file, loc.line, loc.col) (those it has no use for are
 * ignored): "FILE:LINE:COL: ", "FILE:LINE: ", "FILE: ", or "wavecc: " when
 * there is no file. The severity follows it ("error: "). */
const char *diag_loc_format(Loc loc);
/* An error at JSON path `path` (may be NULL) of the document at loc. */
void diag_error_path(Diag *d, Loc loc, const char *path, const char *fmt, ...) PRINTF_LIKE(4, 5);
/* A fix for the next message (its data only: the sink's hint). */
void diag_hint(Diag *d, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Internal bug: print "wavecc: internal error at file:line: msg" and abort;
 * or, inside a DieCatch on this thread (the library's calls,
 * driver/api_call.c), record file, line and message in it and longjmp to
 * it instead. */
NORETURN void die_at(const char *file, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
/* A place die() returns to: push it, setjmp(jb) in the same function, pop
 * it when the guarded work is done. Catches nest (the innermost wins) and
 * are per thread. A die() inside pops the catch, then longjmps with 1. */
typedef struct DieCatch {
	jmp_buf jb;
	const char *file; /* where die() was called */
	int line;
	char msg[1024];
	struct DieCatch *outer;
} DieCatch;
void die_catch_push(DieCatch *c);
void die_catch_pop(DieCatch *c);
/* A test hook: die() here when the environment variable
 * WAVECC_INTERNAL_ERROR_AT names `where` (a pipeline row, "interp",
 * "run"), so tests can see what an internal error does (docs/library.md). */
void die_test_point_at(const char *file, int line, const char *where);
#define die_test_point(where) die_test_point_at(__FILE__, __LINE__, where)
/* Checked invariant that stays on in release builds. */
#define check_that(c) ((c) ? (void)0 : die("invariant failed: %s", #c))

/* ---- arena.c ---- */

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
	size_t used; /* bytes used in head */
	size_t total; /* bytes handed out, all blocks */
	ArenaBlock *spare; /* blocks a reset gave back, reused before malloc */
	size_t nspare; /* their bytes */
} Arena;

typedef struct ArenaMark {
	ArenaBlock *head;
	size_t used, total;
} ArenaMark;

void arena_init(Arena *a);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size); /* zeroed, 16-byte aligned */
void *arena_realloc(Arena *a, void *p, size_t old, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
ArenaMark arena_mark(Arena *a);
void arena_reset(Arena *a, ArenaMark m); /* drops everything after the mark */
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_NEWN(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* Heap helpers that die on out-of-memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* ---- vec (header-only) ----
 * A growable array of T: `Vec(int) v = {0}; vec_push(&v, 3); v.data[0]`.
 * Heap-backed; free with vec_free. */
#define Vec(T) struct { T *data; size_t len, cap; }
#define vec_grow(v, n) \
	((v)->len + (n) > (v)->cap \
		 ? (void)((v)->cap = vec_newcap_((v)->cap, (v)->len + (n)), \
			  (v)->data = xrealloc((v)->data, (v)->cap * sizeof(*(v)->data))) \
		 : (void)0)
#define vec_push(v, x) (vec_grow((v), 1), (v)->data[(v)->len++] = (x))
#define vec_pop(v) ((v)->data[--(v)->len])
#define vec_last(v) ((v)->data[(v)->len - 1])
#define vec_free(v) (free((v)->data), (v)->data = NULL, (v)->len = (v)->cap = 0)
static inline size_t vec_newcap_(size_t cap, size_t need)
{
	size_t c = cap ? cap * 2 : 8;
	while (c < need)
		c *= 2;
	return c;
}

/* ---- buf.c: growable byte/string buffer ---- */
typedef struct Buf {
	char *data; /* always NUL-terminated when len > 0 or after buf_cstr */
	size_t len, cap;
} Buf;

void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_putn(Buf *b, const void *p, size_t n);
void buf_printf(Buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
/* One error line, as a Diag prints it (diag_loc_format, "error: ", the
 * message, a newline), appended to b: the form of every message Buf
 * (launch_run's, compile_check_run's), which the caller prints as it is. */
void buf_diag(Buf *b, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The same without a location: "wavecc: error: msg\n". */
void buf_error(Buf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
const char *buf_cstr(Buf *b);
void buf_clear(Buf *b);
void buf_free(Buf *b);

/* ---- intern.c: interned strings ----
 * Equal strings intern to the same pointer, valid for the life of the
 * process, so names compare with ==. */
/* nearest.c: the name of names[0..n) closest to s by edit distance (case
 * aside), or NULL when none is close; and " (did you mean 'x'? known: a, b,
 * ...)" appended to b. */
const char *nearest_name(const char *s, const char *const *names, size_t n);
void nearest_message(Buf *b, const char *s, const char *const *names, size_t n);

const char *intern(const char *s);
const char *intern_n(const char *s, size_t n);

/* ---- file.c ---- */
/* Every whole-file read is bounded: more than this many bytes (or an
 * endless input such as /dev/zero) fails with errno EFBIG. */
#define READ_FILE_MAX ((size_t)128 << 20)
#define READ_FILE_MAX_TEXT "128 MiB"
/* Read a whole file (at most READ_FILE_MAX bytes); NULL with errno set on
 * failure. The result is NUL-terminated (an empty file gives ""). */
char *read_file(const char *path, size_t *len);
char *read_file_max(const char *path, size_t max, size_t *len);
/* The same for the rest of an open stream, after `prefix` (bytes the caller
 * already read from it); the stream stays open. */
char *file_read_stream_max(FILE *f, const void *prefix, size_t prefix_len, size_t max, size_t *len);
/* strerror, but EFBIG from read_file says what the limit is (callers with
 * their own limit, such as .npy files, say theirs). */
const char *file_strerror(int errnum);

/* Output files. A path names where an output goes:
 *   "-", "/dev/stdout", "/dev/stderr": standard output or error;
 *   an existing file that is not a regular file (a character device such
 *   as /dev/null, a FIFO, a socket), or any existing file under /dev/:
 *   written into, never replaced;
 *   a symbolic link: followed; its final target is written as below and
 *   the link stays (links through /proc are written in place);
 *   otherwise a regular file, replaced atomically: a temporary file in the
 *   same folder, then rename. New regular files get `mode`.
 * An OutputSet writes several outputs all or nothing: outputs_add stages
 * each (regular files into their temporary; nothing is visible yet), and
 * outputs_commit writes the in-place ones and renames the rest. Any
 * failure, or outputs_abort, leaves no regular output behind. Functions
 * return 0, or -1 with errno set. */
typedef struct Output Output;
typedef struct OutputSet {
	Vec(Output) outs;
} OutputSet;
void outputs_init(OutputSet *s);
int outputs_add(OutputSet *s, const char *path, const void *data, size_t len, int mode);
/* On failure *failed (if non-NULL) names the output that failed; the set
 * is emptied either way. */
int outputs_commit(OutputSet *s, const char **failed);
void outputs_abort(OutputSet *s);
/* One output, as above. */
int file_write_output(const char *path, const void *data, size_t len, int mode);
/* The older name of file_write_output (same contract). */
int write_file_atomic(const char *path, const void *data, size_t len, int mode);

/* ---- tempdir.c ---- */
/* A new private folder $TMPDIR/PREFIX-XXXXXX (TMPDIR defaults to /tmp), or
 * NULL with errno. It is removed with everything in it by tempdir_remove,
 * and also if the process exits or dies of a signal first. */
const char *tempdir_create(const char *prefix);
void tempdir_remove(const char *dir);

#endif
