package org.ompprof.unwinder.stitch;

import java.util.List;

/**
 * Where parallel regions were opened: the calling context, as {@link Stitcher#regionContext} gives it, and the
 * construct's call site (its OMPT {@code codeptr_ra}, 0 if unknown). Two constructs in one function share the
 * function's node in a profile's tree; their call sites tell them apart.
 */
public record RegionSite(List<PathFrame> context, long callSite) {
    public RegionSite {
        context = List.copyOf(context);
    }
}
