/* sched_groups.c — the instruction order a user asks for within a loop's
 * trip (the kernel option "interleave", `--interleave`): a cyclic pattern
 * of groups, each a count of instructions of one scheduling class, which
 * the list scheduler fills in turn (sched.c). It plays the part of Wave's
 * use_scheduling_barriers and of LLVM's sched_group_barrier sequences: a
 * performance engineer's say over how MFMAs, LDS accesses and global loads
 * alternate. It orders, it never breaks a dependence.
 *
 * Text: "CLASS:COUNT[,CLASS:COUNT]...", CLASS one of isa_class_name that
 * an instruction in a trip can have (salu smem valu trans vmem-load
 * vmem-store lds mfma), COUNT 1 to 64, at most SCHED_MAX_GROUPS groups. */
#include <stdlib.h>
#include <string.h>

#include "machine.h"

enum { MAX_GROUP_COUNT = 64 };

/* The class named by text[0, n), or -1. Branches and control rows are
 * fences the scheduler never moves, so they are no group's class. */
static int class_named(const char *text, size_t n)
{
	for (int k = 0; k < MC_COUNT; k++)
		if (k != MC_BRANCH && k != MC_CONTROL && strlen(isa_class_name[k]) == n &&
			strncmp(isa_class_name[k], text, n) == 0)
			return k;
	return -1;
}

static int bad(Buf *err, const char *text, const char *why)
{
	buf_printf(err, "interleave '%s': %s (expected CLASS:COUNT,... with CLASS salu, smem, valu, trans, vmem-load, "
			"vmem-store, lds or mfma and COUNT 1 to %d)",
		text, why, MAX_GROUP_COUNT);
	return -1;
}

int sched_groups_parse(const char *text, SchedOptions *o, Buf *err)
{
	o->ngroups = 0;
	const char *p = text;
	if (!*p)
		return bad(err, text, "empty");
	for (;;) {
		const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
		if (!colon || (comma && comma < colon))
			return bad(err, text, "a group without ':COUNT'");
		int cls = class_named(p, (size_t)(colon - p));
		if (cls < 0)
			return bad(err, text, "an unknown class");
		char *end;
		long n = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || (*end && *end != ',') || n < 1 || n > MAX_GROUP_COUNT)
			return bad(err, text, "a count that is not 1 to 64");
		if (o->ngroups == SCHED_MAX_GROUPS)
			return bad(err, text, "more than 16 groups");
		o->groups[o->ngroups++] = (SchedGroup){cls, (int)n};
		if (!*end)
			return 0;
		p = end + 1;
	}
}
