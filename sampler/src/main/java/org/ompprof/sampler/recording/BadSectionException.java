package org.ompprof.sampler.recording;

/**
 * Thrown by a {@link Recording.SectionDecoder} for a payload that does not decode; the
 * recording turns it into a {@link RecordingFormatException} naming the file and offset.
 */
public final class BadSectionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final long offset;

    /** @param offset the byte of the payload where decoding failed, -1 if not known */
    public BadSectionException(long offset, String message) {
        super(message);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}
