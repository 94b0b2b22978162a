/* mem.c — the emulated device address space: a list of caller-owned host
 * regions mapped at device addresses. Lookups check that an access lies
 * wholly inside one region; the last region hit is remembered because a
 * kernel's accesses cluster in a few buffers. Fresh mappings are placed from
 * 4 GiB upward with an unmapped guard zone on each side of every region, as
 * large as the region and at least 1 MiB, so an access past one buffer by
 * up to its own size never lands in the next one: it faults, and
 * emu_mem_describe names the buffer whose guard it hit and how far past its
 * end (or before its start) it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

enum { GUARD = 1u << 20 };

struct EmuMemory {
	Vec(EmuRegion) regions;
	uint64_t next;  /* end of the last fresh mapping's guard zone */
	size_t last;    /* index of the last region found */
};

/* The guard zone on each side of a region of `size` bytes. */
static uint64_t guard_of(uint64_t size) { return size > GUARD ? (size + 4095) & ~(uint64_t)4095 : GUARD; }

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
	uint64_t g = guard_of(size);
	uint64_t a = (m->next + g + align - 1) & ~(align - 1);
	while (overlaps(m, a - g, size + 2 * g))
		a = (a + GUARD + align - 1) & ~(align - 1);
	EmuRegion r = {a, size, host, writable, intern(name ? name : "buffer"), (uint32_t)m->regions.len};
	vec_push(&m->regions, r);
	m->next = a + (size ? size : 1) + g;
	return a;
}

int emu_mem_map_at(EmuMemory *m, uint64_t addr, void *host, uint64_t size, bool writable, const char *name)
{
	if (size == 0 || addr + size < addr || overlaps(m, addr, size))
		return -1;
	EmuRegion r = {addr, size, host, writable, intern(name ? name : "region"), (uint32_t)m->regions.len};
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

size_t emu_mem_count(const EmuMemory *m) { return m->regions.len; }

const EmuRegion *emu_mem_region(EmuMemory *m, size_t index) { return index < m->regions.len ? &m->regions.data[index] : NULL; }

void emu_mem_describe(EmuMemory *m, uint64_t addr, uint64_t size, char *buf, size_t len)
{
	const EmuRegion *best = NULL;
	uint64_t dist = UINT64_MAX;
	bool before = false;
	for (size_t i = 0; i < m->regions.len; i++) {
		const EmuRegion *r = &m->regions.data[i];
		uint64_t end = r->addr + r->size, d;
		bool b = addr < r->addr;
		if (b)
			d = r->addr - addr;
		else if (addr < end)
			d = 0; /* starts inside, runs past the end */
		else
			d = addr - end;
		if (d <= guard_of(r->size) && d < dist)
			best = r, dist = d, before = b;
	}
	if (!best)
		snprintf(buf, len, "not near any mapped region");
	else if (before)
		snprintf(buf, len, "%llu bytes before the start of '%s' (%llu bytes at 0x%llx)", (unsigned long long)dist,
			 best->name, (unsigned long long)best->size, (unsigned long long)best->addr);
	else if (addr < best->addr + best->size)
		snprintf(buf, len, "offset %llu of '%s' (%llu bytes at 0x%llx), running %llu bytes past its end",
			 (unsigned long long)(addr - best->addr), best->name, (unsigned long long)best->size,
			 (unsigned long long)best->addr, (unsigned long long)(addr + size - best->addr - best->size));
	else
		snprintf(buf, len, "offset %llu of '%s' (%llu bytes at 0x%llx): %llu bytes past its end",
			 (unsigned long long)(addr - best->addr), best->name, (unsigned long long)best->size,
			 (unsigned long long)best->addr, (unsigned long long)dist);
}

void emu_where_text(const EmuRegion *r, uint64_t off, char *buf, size_t len)
{
	if (r)
		snprintf(buf, len, "offset %llu of '%s' (address 0x%llx)", (unsigned long long)off, r->name,
			 (unsigned long long)(r->addr + off));
	else
		snprintf(buf, len, "LDS offset 0x%llx", (unsigned long long)off);
}
