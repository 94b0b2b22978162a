/* metadata.c — decode the AMDGPU metadata note (MessagePack, code object
 * v3+; keys per AMDGPUUsage "Code Object V3+ Metadata")
 * with msgpack-c into a CodeMetadata.
 *
 * msgpack_unpack_next builds a tree of msgpack_object in a zone; we copy what
 * we keep (strings, integers) into the caller's arena, so the zone is freed
 * before returning. Unknown keys are ignored (newer code object versions add
 * keys); known keys with the wrong type are errors naming the key. */
#include <msgpack.h>
#include <string.h>

#include "codeobj.h"

typedef struct {
	Arena *a;
	Buf *msg;
} Ctx;

static int bad(Ctx *c, const char *where, const char *key, const char *want)
{
	buf_printf(c->msg, "metadata note: %s%s%s should be %s", where, *where ? " " : "", key, want);
	return -1;
}

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t n = strlen(s);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && memcmp(k->via.str.ptr, s, n) == 0;
}

static int get_str(Ctx *c, const msgpack_object *v, const char **out, const char *where, const char *key)
{
	if (v->type != MSGPACK_OBJECT_STR)
		return bad(c, where, key, "a string");
	*out = arena_strndup(c->a, v->via.str.ptr, v->via.str.size);
	return 0;
}

static int get_int(Ctx *c, const msgpack_object *v, int64_t *out, const char *where, const char *key)
{
	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
		*out = (int64_t)v->via.u64;
	else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*out = v->via.i64;
	else
		return bad(c, where, key, "an integer");
	return 0;
}

static int get_u64(Ctx *c, const msgpack_object *v, uint64_t *out, const char *where, const char *key)
{
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return bad(c, where, key, "a non-negative integer");
	*out = v->via.u64;
	return 0;
}

static int decode_arg(Ctx *c, const msgpack_object *o, KernelArgMeta *arg, const char *where)
{
	if (o->type != MSGPACK_OBJECT_MAP)
		return bad(c, where, ".args entry", "a map");
	bool have_off = false, have_size = false;
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
		int r = 0;
		if (key_is(k, ".name"))
			r = get_str(c, v, &arg->name, where, ".name");
		else if (key_is(k, ".type_name"))
			r = get_str(c, v, &arg->type_name, where, ".type_name");
		else if (key_is(k, ".value_kind"))
			r = get_str(c, v, &arg->value_kind, where, ".value_kind");
		else if (key_is(k, ".address_space"))
			r = get_str(c, v, &arg->address_space, where, ".address_space");
		else if (key_is(k, ".actual_access") || (key_is(k, ".access") && !arg->access))
			r = get_str(c, v, &arg->access, where, ".actual_access");
		else if (key_is(k, ".offset"))
			r = get_u64(c, v, &arg->offset, where, ".offset"), have_off = true;
		else if (key_is(k, ".size"))
			r = get_u64(c, v, &arg->size, where, ".size"), have_size = true;
		if (r)
			return r;
	}
	if (!have_off || !have_size || !arg->value_kind)
		return bad(c, where, "argument", "a map with .offset, .size and .value_kind");
	return 0;
}

static int decode_kernel(Ctx *c, const msgpack_object *o, KernelMeta *km, size_t index)
{
	char where[64];
	snprintf(where, sizeof where, "amdhsa.kernels[%zu]", index);
	if (o->type != MSGPACK_OBJECT_MAP)
		return bad(c, "", where, "a map");
	int64_t *ints[] = {&km->kernarg_segment_size, &km->kernarg_segment_align, &km->group_segment_fixed_size,
			   &km->private_segment_fixed_size, &km->wavefront_size, &km->sgpr_count,
			   &km->vgpr_count, &km->agpr_count, &km->sgpr_spill_count, &km->vgpr_spill_count,
			   &km->max_flat_workgroup_size};
	static const char *const int_keys[] = {".kernarg_segment_size", ".kernarg_segment_align",
					       ".group_segment_fixed_size", ".private_segment_fixed_size",
					       ".wavefront_size", ".sgpr_count", ".vgpr_count", ".agpr_count",
					       ".sgpr_spill_count", ".vgpr_spill_count", ".max_flat_workgroup_size"};
	for (size_t i = 0; i < ARRAY_LEN(ints); i++)
		*ints[i] = -1;
	km->reqd_workgroup_size[0] = km->reqd_workgroup_size[1] = km->reqd_workgroup_size[2] = -1;
	km->uses_dynamic_stack = -1;
	for (uint32_t i = 0; i < o->via.map.size; i++) {
		const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
		int r = 0;
		if (key_is(k, ".name"))
			r = get_str(c, v, &km->name, where, ".name");
		else if (key_is(k, ".symbol"))
			r = get_str(c, v, &km->symbol, where, ".symbol");
		else if (key_is(k, ".uses_dynamic_stack")) {
			if (v->type != MSGPACK_OBJECT_BOOLEAN)
				return bad(c, where, ".uses_dynamic_stack", "a boolean");
			km->uses_dynamic_stack = v->via.boolean;
		} else if (key_is(k, ".reqd_workgroup_size")) {
			if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 3)
				return bad(c, where, ".reqd_workgroup_size", "an array of 3 integers");
			for (int d = 0; d < 3; d++)
				if (get_int(c, &v->via.array.ptr[d], &km->reqd_workgroup_size[d], where,
					    ".reqd_workgroup_size"))
					return -1;
		} else if (key_is(k, ".args")) {
			if (v->type != MSGPACK_OBJECT_ARRAY)
				return bad(c, where, ".args", "an array");
			km->nargs = v->via.array.size;
			km->args = ARENA_NEWN(c->a, KernelArgMeta, km->nargs ? km->nargs : 1);
			for (size_t a = 0; a < km->nargs; a++) {
				char aw[96];
				snprintf(aw, sizeof aw, "%s.args[%zu]", where, a);
				if (decode_arg(c, &v->via.array.ptr[a], &km->args[a], aw))
					return -1;
			}
		} else {
			for (size_t n = 0; n < ARRAY_LEN(int_keys); n++)
				if (key_is(k, int_keys[n]))
					r = get_int(c, v, ints[n], where, int_keys[n]);
		}
		if (r)
			return r;
	}
	if (!km->name || !km->symbol)
		return bad(c, "", where, "a map with .name and .symbol");
	return 0;
}

int metadata_decode(const void *desc, size_t len, Arena *a, CodeMetadata *md, Buf *msg)
{
	Ctx c = {a, msg};
	memset(md, 0, sizeof *md);
	md->version[0] = md->version[1] = -1;
	msgpack_unpacked up;
	msgpack_unpacked_init(&up);
	size_t off = 0;
	int r = -1;
	msgpack_unpack_return ur = msgpack_unpack_next(&up, desc, len, &off);
	if (ur != MSGPACK_UNPACK_SUCCESS) {
		buf_printf(msg, "metadata note: not valid MessagePack (%s)",
			   ur == MSGPACK_UNPACK_CONTINUE ? "truncated" : "malformed");
		goto out;
	}
	const msgpack_object *root = &up.data;
	if (root->type != MSGPACK_OBJECT_MAP) {
		buf_printf(msg, "metadata note: the top level should be a map");
		goto out;
	}
	for (uint32_t i = 0; i < root->via.map.size; i++) {
		const msgpack_object *k = &root->via.map.ptr[i].key, *v = &root->via.map.ptr[i].val;
		if (key_is(k, "amdhsa.version")) {
			if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 2 ||
			    v->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
			    v->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
				bad(&c, "", "amdhsa.version", "an array of two integers");
				goto out;
			}
			md->version[0] = (int)v->via.array.ptr[0].via.u64;
			md->version[1] = (int)v->via.array.ptr[1].via.u64;
		} else if (key_is(k, "amdhsa.target")) {
			if (get_str(&c, v, &md->target, "", "amdhsa.target"))
				goto out;
		} else if (key_is(k, "amdhsa.kernels")) {
			if (v->type != MSGPACK_OBJECT_ARRAY) {
				bad(&c, "", "amdhsa.kernels", "an array");
				goto out;
			}
			md->nkernels = v->via.array.size;
			md->kernels = ARENA_NEWN(a, KernelMeta, md->nkernels ? md->nkernels : 1);
			for (size_t n = 0; n < md->nkernels; n++)
				if (decode_kernel(&c, &v->via.array.ptr[n], &md->kernels[n], n))
					goto out;
		}
	}
	md->present = true;
	r = 0;
out:
	msgpack_unpacked_destroy(&up);
	return r;
}
