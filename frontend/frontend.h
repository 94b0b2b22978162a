/* frontend.h — JSON kernel graph (docs/kernel-format.md) → graph IR.
 *
 * The frontend validates the whole document and reports every problem
 * through the Diag as "FILE:LINE:COL: error: <JSON path>: <message>". It
 * returns the kernel only if there were no errors; otherwise NULL (nothing
 * partial escapes). No input makes it crash, abort or exit.
 */
#ifndef WAVECC_FRONTEND_H
#define WAVECC_FRONTEND_H

#include <stddef.h>

#include "../ir/graph.h"
#include "../util/util.h"

/* Load from memory; `file` names the input in messages. text need not be
 * NUL-terminated. */
Kernel *load_kernel_text(const char *text, size_t len, const char *file, Diag *d);
/* Load from a file; an unreadable file is reported as an error too. */
Kernel *load_kernel_file(const char *path, Diag *d);

#endif
