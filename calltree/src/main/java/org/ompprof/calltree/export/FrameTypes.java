package org.ompprof.calltree.export;

import org.ompprof.calltree.FrameKind;

/**
 * How frame kinds map onto async-profiler's frame types, which pick a frame's color in its
 * flame graphs, and onto the type suffixes of its collapsed stacks. See the package comment.
 */
final class FrameTypes {
    private FrameTypes() {}

    static byte converterType(FrameKind kind) {
        return switch (kind) {
            case USER -> one.convert.Frame.TYPE_JIT_COMPILED;
            case INLINED -> one.convert.Frame.TYPE_INLINED;
            case RUNTIME -> one.convert.Frame.TYPE_CPP;
            case PLACEHOLDER -> one.convert.Frame.TYPE_KERNEL;
        };
    }

    /** The suffix async-profiler's converter reads back as this kind's type ("" for none). */
    static String suffix(FrameKind kind) {
        return switch (kind) {
            case USER -> "_[j]";
            case INLINED -> "_[i]";
            case RUNTIME -> "";
            case PLACEHOLDER -> "_[k]";
        };
    }

    /** The kind an annotated label stands for: the inverse of {@link #suffix}. */
    static FrameKind kindOfSuffixed(String label) {
        if (label.endsWith("_[j]")) return FrameKind.USER;
        if (label.endsWith("_[i]")) return FrameKind.INLINED;
        if (label.endsWith("_[k]")) return FrameKind.PLACEHOLDER;
        return FrameKind.RUNTIME;
    }

    static String stripSuffix(String label, FrameKind kind) {
        return label.substring(0, label.length() - suffix(kind).length());
    }
}
