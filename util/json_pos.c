/* json_pos.c — source positions for the values of a JSON document.
 *
 * jansson parses the document but keeps no positions for values, and the
 * frontend needs one for every message. So after jansson has accepted the
 * text, this file scans it again with a minimal JSON scanner and builds a
 * tree of positions shaped exactly like jansson's tree: an object node holds
 * its members (decoded key, key position, value node) in text order, an
 * array node its elements. Because jansson was run with
 * JSON_REJECT_DUPLICATES, a key names one member, so looking a member up by
 * key here finds the value jansson returns for it.
 *
 * The scanner trusts nothing: on any surprise (which can only happen if the
 * text is not what jansson accepted) it returns NULL and the caller reports
 * positions as unknown. Recursion depth is capped like jansson's.
 * Lines and columns are 1-based; a column counts bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "json_pos.h"

enum { MAX_DEPTH = 2048 };

typedef struct Scan {
	Arena *a;
	const char *s, *end;
	int line;
	const char *line_start;
	bool bad;
} Scan;

static void ws(Scan *sc)
{
	while (sc->s < sc->end) {
		char c = *sc->s;
		if (c == '\n') {
			sc->line++;
			sc->line_start = sc->s + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		sc->s++;
	}
}

static int col(const Scan *sc) { return (int)(sc->s - sc->line_start) + 1; }

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static unsigned read_hex4(Scan *sc)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = sc->s < sc->end ? hexval(*sc->s) : -1;
		if (h < 0) {
			sc->bad = true;
			return 0;
		}
		v = v * 16 + (unsigned)h;
		sc->s++;
	}
	return v;
}

static void put_utf8(Buf *b, unsigned cp)
{
	if (cp < 0x80) {
		buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		buf_putc(b, (char)(0xC0 | (cp >> 6)));
		buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		buf_putc(b, (char)(0xE0 | (cp >> 12)));
		buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		buf_putc(b, (char)(0xF0 | (cp >> 18)));
		buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
		buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		buf_putc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

/* A string at sc->s (the opening quote); decoded into out if non-NULL. */
static void scan_string(Scan *sc, Buf *out)
{
	sc->s++;
	while (sc->s < sc->end && *sc->s != '"') {
		char c = *sc->s++;
		if (c == '\n') { /* not valid JSON; keep line counting honest */
			sc->bad = true;
			return;
		}
		if (c != '\\') {
			if (out)
				buf_putc(out, c);
			continue;
		}
		if (sc->s >= sc->end) {
			sc->bad = true;
			return;
		}
		char e = *sc->s++;
		unsigned cp;
		switch (e) {
		case 'n': cp = '\n'; break;
		case 't': cp = '\t'; break;
		case 'r': cp = '\r'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'u':
			cp = read_hex4(sc);
			if (cp >= 0xD800 && cp < 0xDC00 && sc->end - sc->s >= 6 && sc->s[0] == '\\' &&
				sc->s[1] == 'u') {
				sc->s += 2;
				unsigned lo = read_hex4(sc);
				if (lo >= 0xDC00 && lo < 0xE000)
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
			break;
		default: cp = (unsigned char)e; break;
		}
		if (out)
			put_utf8(out, cp);
	}
	if (sc->s >= sc->end) {
		sc->bad = true;
		return;
	}
	sc->s++;
}

static void scan_value(Scan *sc, JPos *p, int depth);

static void scan_object(Scan *sc, JPos *p, int depth)
{
	Vec(JPosMember) m = {0};
	Buf key = {0};
	sc->s++;
	ws(sc);
	if (sc->s < sc->end && *sc->s == '}') {
		sc->s++;
		goto done;
	}
	while (!sc->bad) {
		ws(sc);
		if (sc->s >= sc->end || *sc->s != '"') {
			sc->bad = true;
			break;
		}
		JPosMember mem = {0};
		mem.key_line = sc->line;
		mem.key_col = col(sc);
		buf_clear(&key);
		scan_string(sc, &key);
		mem.key = arena_strndup(sc->a, key.data ? key.data : "", key.len);
		mem.key_len = key.len;
		ws(sc);
		if (sc->s >= sc->end || *sc->s != ':') {
			sc->bad = true;
			break;
		}
		sc->s++;
		vec_push(&m, mem);
		scan_value(sc, &vec_last(&m).val, depth + 1);
		ws(sc);
		if (sc->s < sc->end && *sc->s == ',') {
			sc->s++;
			continue;
		}
		if (sc->s < sc->end && *sc->s == '}') {
			sc->s++;
			break;
		}
		sc->bad = true;
	}
done:
	p->n = (int)m.len;
	if (m.len) {
		p->members = ARENA_NEWN(sc->a, JPosMember, m.len);
		memcpy(p->members, m.data, sizeof(JPosMember) * m.len);
	}
	vec_free(&m);
	buf_free(&key);
}

static void scan_array(Scan *sc, JPos *p, int depth)
{
	Vec(JPos) e = {0};
	sc->s++;
	ws(sc);
	if (sc->s < sc->end && *sc->s == ']') {
		sc->s++;
		goto done;
	}
	while (!sc->bad) {
		JPos v = {0};
		vec_push(&e, v);
		scan_value(sc, &vec_last(&e), depth + 1);
		ws(sc);
		if (sc->s < sc->end && *sc->s == ',') {
			sc->s++;
			continue;
		}
		if (sc->s < sc->end && *sc->s == ']') {
			sc->s++;
			break;
		}
		sc->bad = true;
	}
done:
	p->n = (int)e.len;
	if (e.len) {
		p->elems = ARENA_NEWN(sc->a, JPos, e.len);
		memcpy(p->elems, e.data, sizeof(JPos) * e.len);
	}
	vec_free(&e);
}

static void scan_value(Scan *sc, JPos *p, int depth)
{
	ws(sc);
	if (sc->s >= sc->end || depth > MAX_DEPTH) {
		sc->bad = true;
		return;
	}
	p->line = sc->line;
	p->col = col(sc);
	char c = *sc->s;
	if (c == '{') {
		p->is_object = true;
		scan_object(sc, p, depth);
	} else if (c == '[') {
		p->is_array = true;
		scan_array(sc, p, depth);
	} else if (c == '"') {
		scan_string(sc, NULL);
	} else {
		/* number, true, false, null: up to a delimiter */
		const char *start = sc->s;
		while (sc->s < sc->end && !strchr(",]} \t\r\n", *sc->s))
			sc->s++;
		if (sc->s == start)
			sc->bad = true;
	}
}

const JPos *jpos_build(Arena *a, const char *text, size_t len)
{
	Scan sc = {a, text, text + len, 1, text, false};
	JPos *root = ARENA_NEW(a, JPos);
	scan_value(&sc, root, 0);
	ws(&sc);
	if (sc.bad)
		return NULL;
	return root;
}

const JPosMember *jpos_member(const JPos *p, const char *key)
{
	if (!p || !p->is_object)
		return NULL;
	size_t n = strlen(key);
	for (int i = 0; i < p->n; i++)
		if (p->members[i].key_len == n && memcmp(p->members[i].key, key, n) == 0)
			return &p->members[i];
	return NULL;
}

const JPos *jpos_get(const JPos *p, const char *key)
{
	const JPosMember *m = jpos_member(p, key);
	return m ? &m->val : NULL;
}

const JPos *jpos_at(const JPos *p, size_t i)
{
	if (!p || !p->is_array || i >= (size_t)p->n)
		return NULL;
	return &p->elems[i];
}

Loc jpos_error_loc(const char *file, const char *text, size_t len, int line, int column, size_t position)
{
	if (line > 0 && column > 0)
		return (Loc){file, line, column};
	int l = 1, c = 1;
	for (size_t i = 0; i < len && i < position; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	return (Loc){file, l, c};
}
