/* usage.c — how the command ends on bad input or bad usage: the only
 * place in wavecc that calls exit() (the library reports and returns; a
 * bug aborts through die()). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void err(const char *fmt, ...)
{
	va_list ap;
	fputs("wavecc: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void err_at(Loc at, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, diag_loc_format(at), at.file, at.line, at.col);
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void print_file_error(const char *file, const char *msg)
{
	size_t n = strlen(file);
	if (strncmp(msg, file, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
		msg += n + 2;
	fprintf(stderr, "%s: error: %s\n", file, msg);
}

static const char *usage_command;

void usage_set_command(const char *cmd)
{
	usage_command = cmd;
}

void usage_err(const char *fmt, ...)
{
	va_list ap;
	fputs("wavecc: usage error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (usage_command)
		fprintf(stderr, "\n(run 'wavecc help %s' for usage)\n", usage_command);
	else
		fputs("\n(run 'wavecc help' for usage)\n", stderr);
	exit(2);
}
