/* Whether an address lies in the loaded objects' code. */
#ifndef OMPPROF_CODE_RANGES_H
#define OMPPROF_CODE_RANGES_H

#include <stdint.h>

int code_ranges_init(void);
/* The ranges of the objects loaded now; one caller at a time. */
void code_ranges_refresh(void);

/* The ranges change at a refresh: a reader on another thread brackets its questions,
 * `do { seq = code_ranges_begin(); ... } while (code_ranges_changed(seq));`, and asks again. */
uint32_t code_ranges_begin(void);
int code_ranges_changed(uint32_t seq);
int code_ranges_contains(uint64_t a);

#endif
