/**
 * Blame shifting: who makes the threads wait. A thread that waits is a symptom; the cause is
 * the code the other threads run meanwhile.
 *
 * <ul>
 * <li><b>Undirected</b> ({@link BlameKind#IDLE}, {@link BlameKind#BARRIER}): a sample taken
 *   while a thread waits at a barrier is shared equally among the contexts that the region's
 *   other threads are working in at that moment; an idle sample, the same with the initial
 *   thread's context. "At that moment" is the other thread's sample whose stretch covers it: a
 *   sample stands for the time since the one before, so a working thread that was descheduled
 *   (or late to its signal) and sampled once with the overrun's weight is charged for the whole
 *   stretch. Where no sample covers the moment, its sample nearest in time counts if it lies
 *   within two sample weights; either must be a working sample. The region's other threads are
 *   those with samples in it; when the waiter is alone there (regions shorter than the sampling
 *   period), every thread, by its sample covering the moment.
 * <li><b>Directed</b> (the {@code MUTEX_*} kinds): a sample waiting for a lock, critical,
 *   atomic or ordered is charged, by its wait id, to the context of the thread holding that
 *   mutex at that moment (from the acquired/released events): the holder's sample nearest in
 *   time inside its hold, or, when the hold had none, the holder's sample nearest its release.
 *   While the runtime hands a released mutex to the next waiter (no holder for a moment), the
 *   waiting stays with the last hold by another thread; a waiter that held the mutex last
 *   itself waits for the next hold by another thread, and is charged inside that one.
 * <li><b>Conservation</b>: every nanosecond of waiting is charged exactly once (shares are
 *   split in whole nanoseconds, remainders included); what finds no blamee is charged to
 *   {@link Charges#UNATTRIBUTED} and counted.
 * </ul>
 *
 * <p>Input and output are columns of primitives ({@link SampleTable}, {@link MutexHolds},
 * {@link Charges}), so the stage is independent of how samples were recorded and cheap for
 * millions of samples. A run of any length is charged in bounded memory by {@link WindowedBlame},
 * from samples in time order, a few seconds of them at a time.
 */
package org.ompprof.blame;
