/**
 * ELF and DWARF call-frame reading, unwinding of the recorded stack snapshots, OMPT frame
 * elision and context stitching, symbolization (issue 3).
 */
package org.ompprof.unwinder;
