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
