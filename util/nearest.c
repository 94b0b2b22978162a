/* nearest.c — "did you mean": the known name closest to a misspelt one, for
 * messages that name an unknown op, dtype or MMA type.
 *
 * Algorithm: Levenshtein distance (insert, delete, substitute, each 1),
 * case-insensitive, by the two-row dynamic program; the first name with the
 * least distance wins if that distance is at most a third of the longer
 * name (at least 1, at most 3), else there is no suggestion. */
#include <ctype.h>
#include <string.h>

#include "util.h"

enum { NEAREST_MAX_LEN = 64 };

static int distance(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na > NEAREST_MAX_LEN || nb > NEAREST_MAX_LEN)
		return NEAREST_MAX_LEN + 1;
	int prev[NEAREST_MAX_LEN + 1], cur[NEAREST_MAX_LEN + 1];
	for (size_t j = 0; j <= nb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (nb + 1) * sizeof *prev);
	}
	return prev[nb];
}

const char *nearest_name(const char *s, const char *const *names, size_t n)
{
	const char *best = NULL;
	int bd = NEAREST_MAX_LEN + 1;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		int d = distance(s, names[i]);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	size_t len = strlen(s);
	if (best && strlen(best) > len)
		len = strlen(best);
	int most = (int)(len / 3);
	most = most < 1 ? 1 : most > 3 ? 3 : most;
	return best && bd <= most ? best : NULL;
}

void nearest_message(Buf *b, const char *s, const char *const *names, size_t n)
{
	const char *near = nearest_name(s, names, n);
	buf_puts(b, " (");
	if (near)
		buf_printf(b, "did you mean '%s'? ", near);
	buf_puts(b, "known:");
	for (size_t i = 0; i < n; i++)
		if (names[i])
			buf_printf(b, "%s %s", i ? "," : "", names[i]);
	buf_putc(b, ')');
}
