/* size.h - the size grammar of the primitives library (src/prim/size.c). */
#ifndef SETTLE_PRIM_SIZE_H
#define SETTLE_PRIM_SIZE_H

#include <stdint.h>

/* As declared and documented in settle.h: 0 and the byte count in
 * *bytes, -1 when s is not a positive size, -2 when it is 2^64 or more. */
int settle_parse_size(const char *s, uint64_t *bytes);

#endif
