/**
 * The OpenMP vocabulary, in one home: the OMPT thread states with the metric each is counted in
 * and what it means to blame ({@link org.ompprof.sampler.omp.OmpState},
 * {@link org.ompprof.sampler.omp.WaitClass}), mutex kinds, thread types and task flags, each
 * pinned against the runtime's omp-tools.h. Every module names and classifies states through
 * these, so {@code info}, {@code report}, the exports and the viewer say the same thing.
 */
package org.ompprof.sampler.omp;
