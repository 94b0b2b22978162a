/* json_pos.h — a tree of source positions parallel to a jansson tree (see
 * json_pos.c for why and how). All nodes live in the caller's arena. Every
 * lookup accepts NULL and returns NULL, so callers can descend without
 * checks and simply get an unknown position when the tree is missing. */
#ifndef WAVECC_JSON_POS_H
#define WAVECC_JSON_POS_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

typedef struct JPos JPos;
typedef struct JPosMember JPosMember;

struct JPos {
	int line, col; /* first character of the value */
	bool is_object, is_array;
	int n;               /* members or elements */
	JPosMember *members; /* objects, text order */
	JPos *elems;         /* arrays */
};

struct JPosMember {
	const char *key; /* decoded, NUL-terminated */
	size_t key_len;
	int key_line, key_col; /* the key's opening quote */
	JPos val;
};

/* The position tree of `text`, or NULL if it does not scan as JSON. */
const JPos *jpos_build(Arena *a, const char *text, size_t len);
const JPosMember *jpos_member(const JPos *p, const char *key);
const JPos *jpos_get(const JPos *p, const char *key); /* member value */
const JPos *jpos_at(const JPos *p, size_t i);          /* array element */

/* Where a jansson parse error is: its line and column, or, where jansson
 * gives no column (an error at the end of the input), the line and column
 * of its byte position `position` in text (1-based; jansson's position at
 * the end is the last character read). */
Loc jpos_error_loc(const char *file, const char *text, size_t len, int line, int column, size_t position);

#endif
