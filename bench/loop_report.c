/* loop_report.c — finding and measuring the main loop of a kernel's
 * assembly text (contract in loop_report.h). The text is wavecc's `-S`
 * output or clang-19's, so the loop is found in the text, not in the
 * compiler's IR, and both sides are measured the same way. Instructions are
 * classed by the compiler's instruction table (ir/isa/insts.h), the classes
 * `wavecc compile --stats` counts over the whole kernel. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "loop_report.h"

char *bench_run_out(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	size_t k;
	while ((k = fread(b + n, 1, cap - n - 1, p)) > 0) {
		n += k;
		if (n + 1 >= cap)
			b = realloc(b, cap *= 2);
	}
	b[n] = 0;
	if (pclose(p) != 0) {
		free(b);
		return NULL;
	}
	return b;
}

/* An instruction line: indented, a lowercase mnemonic (labels start in
 * column 0, directives with a dot, comments with / or ;). */
static bool is_inst(const char *l)
{
	if (*l != ' ' && *l != '\t')
		return false;
	while (*l == ' ' || *l == '\t')
		l++;
	return islower((unsigned char)*l);
}

/* The main loop's lines [*from, *to] of the lines of an assembly text. */
static bool find_loop(char **lines, int n, int *from, int *to)
{
	int best = -1;
	for (int b = 0; b < n; b++) {
		const char *br = strstr(lines[b], "s_cbranch_");
		if (!br || !is_inst(lines[b]))
			continue;
		const char *lab = strchr(br, ' ');
		if (!lab)
			continue;
		while (*lab == ' ')
			lab++;
		size_t ll = strcspn(lab, " \t;/");
		for (int a = 0; a < b; a++) {
			if (strncmp(lines[a], lab, ll) != 0 || lines[a][ll] != ':')
				continue;
			int m = 0;
			for (int i = a; i <= b; i++)
				m += strstr(lines[i], "v_mfma") != NULL;
			if (m > best || (m == best && b - a < *to - *from)) {
				best = m;
				*from = a + 1;
				*to = b;
			}
		}
	}
	return best > 0;
}

static int split(char *s, char ***out)
{
	int n = 0, cap = 256;
	char **l = malloc(sizeof *l * (size_t)cap);
	for (char *p = s; p && *p;) {
		if (n == cap)
			l = realloc(l, sizeof *l * (size_t)(cap *= 2));
		l[n++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = 0;
	}
	*out = l;
	return n;
}

/* The scheduling class of an instruction line's mnemonic: the table row
 * spelled so on either target, the encoding suffix (_e32, _e64) dropped
 * when the row has none; -1 if no row is. */
static int class_of(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	char m[64];
	size_t n = strcspn(line, " \t");
	if (n >= sizeof m)
		return -1;
	memcpy(m, line, n);
	m[n] = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int op = 0; op < I_COUNT; op++) {
			char name[64];
			for (int t = 0; t < 2; t++) {
				isa_mnemonic(name, sizeof name, op, t == 1);
				if (strcmp(name, m) == 0)
					return isa_class(op);
			}
		}
		char *sfx = strrchr(m, '_');
		if (pass || !sfx || (strcmp(sfx, "_e32") != 0 && strcmp(sfx, "_e64") != 0))
			break;
		*sfx = 0;
	}
	return -1;
}

/* llvm-mca-22 on the loop in file path: cycles and XDL busy cycles per
 * trip (100 trips, one wave, in order). */
static void mca(const char *path, const char *mcpu, LoopStats *q)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "llvm-mca-22 -mtriple=amdgcn-amd-amdhsa -mcpu=%s -iterations=100 '%s' 2>/dev/null", mcpu,
		path);
	char *m = bench_run_out(cmd);
	if (!m)
		return;
	const char *tc = strstr(m, "Total Cycles:");
	const char *res = strstr(m, "Resources:");
	const char *pr = strstr(m, "Resource pressure per iteration:");
	int xdl = -1;
	for (const char *p = res; p && p < pr; p = strchr(p + 1, '\n')) {
		int k;
		char name[64];
		if (sscanf(p + 1, "[%d] - %63s", &k, name) == 2 && strcmp(name, "HWXDL") == 0)
			xdl = k;
	}
	if (tc && pr && xdl >= 0) {
		q->cycles = atof(tc + strlen("Total Cycles:")) / 100.0;
		const char *vals = strchr(strchr(pr, '\n') + 1, '\n') + 1; /* past the header of indices */
		for (int k = 0; k <= xdl; k++) {
			while (*vals == ' ')
				vals++;
			if (k == xdl)
				q->xdl = *vals == '-' ? 0 : atof(vals);
			while (*vals && *vals != ' ' && *vals != '\n')
				vals++;
		}
		q->mca = true;
	}
	free(m);
}

/* Lines [a, b] into q, and llvm-mca on them. */
static void measure(char **l, int a, int b, const char *mcpu, const char *tmp, LoopStats *q)
{
	q->found = true;
	char path[4096];
	snprintf(path, sizeof path, "%s/loop.s", tmp);
	FILE *f = fopen(path, "w");
	if (!f)
		bench_fail(1, "loop_report: cannot write %s", path);
	for (int i = a; i <= b; i++) {
		if (!is_inst(l[i]))
			continue;
		char *c = strstr(l[i], "//");
		if (c)
			*c = 0;
		if ((c = strchr(l[i], ';')))
			*c = 0;
		q->insts++;
		q->mfmas += strstr(l[i], "v_mfma") != NULL;
		int k = class_of(l[i]);
		if (k < 0)
			q->unknown++;
		else
			q->by_class[k]++;
		fprintf(f, "%s\n", l[i]);
	}
	fclose(f);
	mca(path, mcpu, q);
}

void loop_report(char *s, const char *mcpu, const char *tmp, LoopStats *q)
{
	char **l;
	int n = split(s, &l), a = 0, b = 0;
	if (find_loop(l, n, &a, &b))
		measure(l, a, b, mcpu, tmp, q);
	free(l);
}

void body_report(char *s, const char *mcpu, const char *tmp, LoopStats *q)
{
	char **l;
	int n = split(s, &l), a = -1, b = -1;
	for (int i = 0; i < n && b < 0; i++) {
		if (a < 0 && is_inst(l[i]))
			a = i;
		if (a >= 0 && is_inst(l[i]) && strstr(l[i], "s_endpgm"))
			b = i;
	}
	if (a >= 0 && b >= 0)
		measure(l, a, b, mcpu, tmp, q);
	free(l);
}
