/* main.c — the wavecc driver: dispatch to a subcommand from cli.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "cli.h"

typedef struct {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} Command;

#define ROW(name, fn, summary) {name, fn, summary},
static const Command commands[] = {WAVECC_COMMANDS(ROW)};
#undef ROW

static void print_usage(FILE *out)
{
	fprintf(out, "usage: wavecc COMMAND [ARGS...]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'wavecc help COMMAND' (or 'wavecc COMMAND --help') shows a command's options;\n"
		     "'wavecc -v' or 'wavecc --version' the version.\n");
}

int cmd_help(int argc, char **argv)
{
	if (argc >= 2) {
		for (size_t i = 0; i < ARRAY_LEN(commands); i++) {
			if (strcmp(commands[i].name, argv[1]) == 0 && commands[i].fn != cmd_help) {
				char *args[] = {argv[1], "--help", NULL};
				return commands[i].fn(2, args);
			}
		}
		usage_err("unknown command '%s' (the commands: wavecc help)", argv[1]);
	}
	print_usage(stdout);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: wavecc version   (also: wavecc -v, wavecc --version, wavecc CMD --version)\n");
			return 0;
		} else if (strcmp(argv[i], "--version") != 0 && strcmp(argv[i], "-v") != 0) {
			usage_err("version: unexpected argument '%s'", argv[i]);
		}
	printf("wavecc %s\n", WAVECC_VERSION);
	return 0;
}

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

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		name = "help";
	if (strcmp(name, "--version") == 0 || strcmp(name, "-v") == 0)
		name = "version";
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		if (strcmp(commands[i].name, name) == 0) {
			usage_set_command(commands[i].name);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "wavecc: usage error: unknown command '%s'\n\n", name);
	print_usage(stderr);
	return 2;
}
