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
	fprintf(out, "\n'wavecc COMMAND --help' shows a command's options.\n");
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
		usage_err("unknown command '%s'", argv[1]);
	}
	print_usage(stdout);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("wavecc %s\n", WAVECC_VERSION);
	return 0;
}

int opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*value = a + n + 1;
		return 1;
	}
	if (a[n] != 0)
		return 0;
	if (*i + 1 >= argc)
		usage_err("option %s needs a value", name);
	*value = argv[++*i];
	return 1;
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
	if (strcmp(name, "--version") == 0)
		name = "version";
	for (size_t i = 0; i < ARRAY_LEN(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "wavecc: usage error: unknown command '%s'\n\n", name);
	print_usage(stderr);
	return 2;
}
