package org.ompprof.sampler.record;

/** A record's bytes do not describe a valid record; the message says what is wrong. */
public final class MalformedRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedRecordException(String message) {
        super(message);
    }
}
