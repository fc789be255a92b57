package org.ompprof.unwinder.cfi;

/**
 * A Common Information Entry: what the FDEs that point at it share. The initial instructions
 * are kept as a range {@code [instructionsStart, instructionsEnd)} of the section bytes.
 */
public record Cie(
        int offset,
        int version,
        String augmentation,
        long codeAlignment,
        long dataAlignment,
        int returnAddressRegister,
        int fdeEncoding,
        boolean hasAugmentationData,
        boolean signalFrame,
        int addressSize,
        int instructionsStart,
        int instructionsEnd) {}
