/* options.c — how every command reads its options: the spellings clang and
 * llvm-mc users type (NAME VALUE, NAME=VALUE, -oVALUE, -mcpu=), --help and
 * --version everywhere, integers, and -D SYM=VAL. The commands call these;
 * nothing here calls a command. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../driver/driver.h"
#include "cli.h"

/* One spelling of an option: `NAME VALUE`, `NAME=VALUE`, and for a
 * one-letter NAME (`-o`) also `-oVALUE`. */
static int opt_spelling(int argc, char **argv, int *i, const char *name, const char *shown, const char **value)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*value = a + n + 1;
		return 1;
	}
	if (a[n] != 0) {
		if (n == 2 && name[0] == '-' && name[1] != '-') {
			*value = a + n;
			return 1;
		}
		return 0;
	}
	if (*i + 1 >= argc)
		usage_err("option %s needs a value", shown);
	*value = argv[++*i];
	return 1;
}

int opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
	if (opt_spelling(argc, argv, i, name, name, value))
		return 1;
	/* The single-dash spelling of clang and llvm-mc: -mcpu=gfx942. */
	return strcmp(name, "--mcpu") == 0 && opt_spelling(argc, argv, i, "-mcpu", name, value);
}

bool opt_common(const char *a, const char *cmd, void (*usage)(FILE *), int *rc)
{
	if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
		usage(stdout);
		*rc = 0;
		return true;
	}
	if (strcmp(a, "--version") == 0) {
		printf("wavecc %s\n", WAVECC_VERSION);
		*rc = 0;
		return true;
	}
	(void)cmd;
	return false;
}

const char *input_format(const char *path, char *buf, size_t n)
{
	size_t len;
	char *text = read_file(path, &len);
	json_error_t je;
	json_t *doc = text ? json_loadb(text, len, 0, &je) : NULL;
	free(text);
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	snprintf(buf, n, "%s", fmt ? fmt : "");
	json_decref(doc);
	return buf;
}

bool opt_version_only(bool verbose, const char *input)
{
	if (verbose)
		fprintf(stderr, "wavecc %s\n", WAVECC_VERSION);
	return verbose && !input;
}

long long opt_int(const char *name, const char *value)
{
	char *end;
	errno = 0;
	long long v = strtoll(value, &end, 0);
	if (errno || end == value || *end)
		usage_err("option %s needs an integer, got '%s'", name, value);
	return v;
}

bool opt_codegen(const char *a, CompileOptions *o)
{
	if (strcmp(a, "--no-schedule") == 0) {
		o->no_schedule = true;
		return true;
	}
	return false;
}

bool opt_schedule(int argc, char **argv, int *i, CompileOptions *o)
{
	const char *v;
	if (opt_value(argc, argv, i, "--schedule", &v)) {
		o->schedule = kernel_schedule_from_name(v);
		if (!o->schedule)
			usage_err("--schedule %s: expected " SCHEDULE_NAMES, v);
	} else if (opt_value(argc, argv, i, "--lds-stages", &v)) {
		long long n = opt_int("--lds-stages", v);
		if (n < 1 || n > 2)
			usage_err("--lds-stages %s: expected 1 or 2", v);
		o->lds_stages = (int)n;
	} else if (opt_value(argc, argv, i, "--interleave", &v)) {
		SchedOptions so;
		Buf err = {0};
		char msg[512] = "";
		if (sched_groups_parse(v, &so, &err) != 0)
			snprintf(msg, sizeof msg, "%s", buf_cstr(&err));
		buf_free(&err);
		if (msg[0])
			usage_err("--%s", msg);
		o->interleave = v;
	} else if (opt_value(argc, argv, i, "--waves-per-eu", &v)) {
		long long n = opt_int("--waves-per-eu", v);
		if (n < 1 || n > 8)
			usage_err("--waves-per-eu %s: expected 1 to 8", v);
		o->waves_per_eu = (int)n;
	} else
		return false;
	return true;
}

bool opt_define(int argc, char **argv, int *i, CompileOptions *o)
{
	const char *a = argv[*i];
	if (strncmp(a, "-D", 2) != 0)
		return false;
	const char *d = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
	const char *eq = d ? strchr(d, '=') : NULL;
	if (!eq || eq == d)
		usage_err("-D needs SYM=VAL%s%s%s", d ? ", got '" : "", d ? d : "", d ? "'" : "");
	if (o->ndefs == MAX_DEFS)
		usage_err("at most %d -D options", MAX_DEFS);
	o->def_name[o->ndefs] = intern_n(d, (size_t)(eq - d));
	o->def_val[o->ndefs++] = opt_int("-D", eq + 1);
	return true;
}
