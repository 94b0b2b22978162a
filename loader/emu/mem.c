/* mem.c — the emulated device address space: a list of caller-owned host
 * regions mapped at device addresses. Lookups check that an access lies
 * wholly inside one region; the last region hit is remembered because a
 * kernel's accesses cluster in a few buffers. Fresh mappings are placed from
 * 4 GiB upward with a 1 MiB unmapped guard between regions, so a small
 * overrun past one buffer never lands in the next one. */
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

enum { GUARD = 1u << 20 };

struct EmuMemory {
	Vec(EmuRegion) regions;
	uint64_t next;  /* next free address for emu_mem_map */
	size_t last;    /* index of the last region found */
};

EmuMemory *emu_mem_new(void)
{
	EmuMemory *m = xcalloc(1, sizeof *m);
	m->next = (uint64_t)1 << 32;
	return m;
}

void emu_mem_free(EmuMemory *m)
{
	if (!m)
		return;
	vec_free(&m->regions);
	free(m);
}

static bool overlaps(EmuMemory *m, uint64_t addr, uint64_t size)
{
	for (size_t i = 0; i < m->regions.len; i++) {
		EmuRegion *r = &m->regions.data[i];
		if (addr < r->addr + r->size && r->addr < addr + size)
			return true;
	}
	return false;
}

uint64_t emu_mem_map(EmuMemory *m, void *host, uint64_t size, uint64_t align, bool writable, const char *name)
{
	if (align < 256)
		align = 256;
	if (align & (align - 1))
		die("emu_mem_map: alignment %llu is not a power of two", (unsigned long long)align);
	uint64_t a = (m->next + GUARD + align - 1) & ~(align - 1);
	while (overlaps(m, a - GUARD, size + 2 * (uint64_t)GUARD))
		a = (a + GUARD + align - 1) & ~(align - 1);
	EmuRegion r = {a, size, host, writable, intern(name ? name : "buffer")};
	vec_push(&m->regions, r);
	m->next = a + (size ? size : 1);
	return a;
}

int emu_mem_map_at(EmuMemory *m, uint64_t addr, void *host, uint64_t size, bool writable, const char *name)
{
	if (size == 0 || addr + size < addr || overlaps(m, addr, size))
		return -1;
	EmuRegion r = {addr, size, host, writable, intern(name ? name : "region")};
	vec_push(&m->regions, r);
	return 0;
}

const EmuRegion *emu_mem_find(EmuMemory *m, uint64_t addr, uint64_t size)
{
	if (m->last < m->regions.len) {
		EmuRegion *r = &m->regions.data[m->last];
		if (addr >= r->addr && addr - r->addr <= r->size && size <= r->size - (addr - r->addr))
			return r;
	}
	for (size_t i = 0; i < m->regions.len; i++) {
		EmuRegion *r = &m->regions.data[i];
		if (addr >= r->addr && addr - r->addr <= r->size && size <= r->size - (addr - r->addr)) {
			m->last = i;
			return r;
		}
	}
	return NULL;
}

void *emu_mem_host(EmuMemory *m, uint64_t addr, uint64_t size, bool for_write)
{
	const EmuRegion *r = emu_mem_find(m, addr, size);
	if (!r || (for_write && !r->writable))
		return NULL;
	return r->host + (addr - r->addr);
}
