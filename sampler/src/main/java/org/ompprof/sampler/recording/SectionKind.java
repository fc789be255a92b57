package org.ompprof.sampler.recording;

/** The kinds of section in a recording file, with their numbers on disk. */
public enum SectionKind {
    METADATA(1),
    THREADS(2),
    MODULES(3),
    MODULE_IMAGE(4),
    RECORDS(5),
    STATS(6),
    END(255);

    private final int code;

    SectionKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The kind with this number, or null. */
    public static SectionKind of(int code) {
        for (SectionKind k : values()) if (k.code == code) return k;
        return null;
    }
}
