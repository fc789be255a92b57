package org.ompprof.sampler.record;

import org.ompprof.sampler.wire.Wire;

/**
 * Where a written mutex hold ended: the holder's calling context at its release, sent right after
 * the hold's RELEASED event and stamped with its time. Blame charges waiting to it when the holder
 * has no sample inside the hold.
 *
 * @param taskId the holding task; 0 if unknown
 * @param codeptrRa the release call's return address in the user's code
 * @param encExitFrame the holding task's exit frame: where its own frames end
 * @param shape identity of the release site (as a creation's); when the context has {@code
 *     Wire.CTX_SAME_SHAPE} there is no snapshot and the site is that of the earlier record with the same shape
 */
public record MutexSite(
        int threadSeq,
        long timeNs,
        long waitId,
        long taskId,
        long codeptrRa,
        long encExitFrame,
        long shape,
        Context context)
        implements WireRecord {
    /** Whether this record refers to an earlier one's site instead of carrying a stack. */
    public boolean sameShape() {
        return context.sameShape();
    }

    @Override
    public int type() {
        return Wire.REC_MUTEX_SITE;
    }
}
