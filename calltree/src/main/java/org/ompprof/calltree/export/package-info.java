/**
 * Exports of calling-context trees: Brendan Gregg's collapsed ("folded") stacks and
 * async-profiler's HTML flame graphs.
 *
 * <p>Frame colors in flame graphs (async-profiler's palette, chosen through the frame type the
 * converter is given; the legend of the page is relabelled accordingly):
 * <ul>
 *   <li>user code: green (the converter's "compiled" type; suffix {@code _[j]} in annotated
 *       collapsed stacks)
 *   <li>inlined functions: teal (suffix {@code _[i]}). The converter files an inlined frame
 *       under a user frame of the same name at the same place, as it does for Java methods
 *       inlined in some call paths and not in others, and colors it teal when at least a third
 *       of its samples were inlined; the tooltip then shows the inlined count ({@code inln=})
 *   <li>OpenMP runtime: yellow (the "C++ (VM)" type; no suffix, the converter has none for it)
 *   <li>placeholders such as {@code <omp idle>} or {@code <truncated>}: orange (the "kernel"
 *       type; suffix {@code _[k]})
 * </ul>
 */
package org.ompprof.calltree.export;
