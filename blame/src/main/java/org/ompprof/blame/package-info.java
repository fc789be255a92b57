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
 *   stretch. An initial thread that itself waits at a barrier then passes an idle thread's
 *   waiting on to its team, level by level for nested teams. When no covering sample is a
 *   working one (regions shorter than the sampling period are over by the others' next samples;
 *   a descheduled thread's next sample comes late), someone was late, and each other thread's
 *   work around that moment stands for it: its working sample in the waiter's region instance
 *   nearest the moment, else its working sample nearest the moment within two sample weights.
 *   The region's other threads are those with samples in it; when the waiter is alone there,
 *   every thread. What finds nobody working (every thread waiting at the same barrier: the
 *   runtime's own fork and join latency) stays unattributed.
 * <li><b>Directed</b> (the {@code MUTEX_*} kinds): a sample waiting for a lock, critical,
 *   atomic or ordered is charged, by its wait id, to the context of the thread holding that
 *   mutex at that moment (from the acquired/released events): the holder's sample nearest in
 *   time inside its hold, or, when the hold had none, the context in which the holder released
 *   it (its release site, which the agent sends with every hold it writes; only when that is
 *   missing, the holder's sample nearest its release). While the runtime hands a released mutex
 *   on (no holder for a moment: a queuing lock goes to the next waiter in line, which may not
 *   be running), the waiting goes to the nearer in time of the last hold by another thread
 *   and the next one; the agent writes the holds of the threads that waited while a waiter
 *   was sampled, so the next hold is there.
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
