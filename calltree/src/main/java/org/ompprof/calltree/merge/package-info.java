/**
 * Merge and diff of profiles, one input at a time. {@link org.ompprof.calltree.merge.ProfileMerger}
 * adds profiles (trees by path, threads and devices renumbered apart, tables and counters added,
 * metadata kept per run) and returns the {@link org.ompprof.calltree.merge.InputMapping} that
 * carries an input's timelines across; {@link org.ompprof.calltree.merge.ProfileDiff} puts a base
 * profile's values beside a new one's. {@link org.ompprof.calltree.merge.ProfileMerge} and
 * {@link org.ompprof.calltree.merge.ProfileDiffer} do it file to file ({@code ompprof merge},
 * {@code ompprof diff}), streaming the timelines; a raw recording among the inputs is built first.
 */
package org.ompprof.calltree.merge;
