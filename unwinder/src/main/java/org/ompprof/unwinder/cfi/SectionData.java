package org.ompprof.unwinder.cfi;

/**
 * The bytes of one section and the virtual address of its first byte. The array is not
 * copied (sections are large and read-only by convention); byte 0 sits at {@code vaddr}.
 */
public record SectionData(String name, byte[] bytes, long vaddr) {
    public int size() {
        return bytes.length;
    }
}
