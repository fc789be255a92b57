/**
 * The profile layer, below the user interface and above the sampler, the unwinder and blame:
 * calling-context trees and their metrics (this package), the stages that build a profile from a
 * raw recording ({@code build}), the profile model and its {@code .ompprof} file ({@code profile}),
 * merge and diff ({@code merge}), views ({@code views}) and exports ({@code export}).
 *
 * <p>The stitcher interns each {@link org.ompprof.calltree.Frame} once in a
 * {@link org.ompprof.calltree.FrameTable} and hands each sample to
 * {@link org.ompprof.calltree.CallingContextTree#addSample(int, int[], int, long)} as a path of
 * frame ids, outermost first. Metrics are columns named in a
 * {@link org.ompprof.calltree.MetricRegistry}: {@code samples}, {@code time} and
 * {@code time.<state>} (see {@link org.ompprof.calltree.OmpState}) come standard; later
 * stages register theirs (blame) and {@link org.ompprof.calltree.CallingContextTree#add add}
 * to them.
 *
 * <p>Storage, for a million nodes and hundreds of threads: nodes are int ids in parallel int
 * lists, children found through one primitive map keyed by {@code parent << 32 | frame}; values
 * live per (node, thread) pair that has any, each pair a dense slot found through one map keyed
 * by {@code node << 20 | thread}, each metric a column over slots (a flat long array for metrics
 * every pair has, a primitive map for the rest). Inclusive values are one descending sweep
 * over node ids (children always have larger ids than their parents), cached until the next
 * change.
 */
package org.ompprof.calltree;
