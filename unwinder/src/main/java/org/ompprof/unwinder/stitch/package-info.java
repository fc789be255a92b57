/**
 * OMPT frame elision and calling-context stitching: from a recorded sample to the user's
 * call path, root ({@code main}) first, the way an HPCToolkit user expects to see it.
 *
 * <p>Usage: {@code Stitcher.of(recording).samples()} gives a {@link
 * org.ompprof.unwinder.stitch.StitchedSample} per sample; {@link
 * org.ompprof.unwinder.stitch.Stitcher#counters()} says how many of each kind there were.
 *
 * <h2>What libomp reports (Debian's libomp 19, checked by the tests)</h2>
 * Task frame addresses are {@code __builtin_frame_address(0)} of runtime functions, i.e. the
 * CFA - 16 of the frame: the exit frame is that of the runtime function that called the
 * task's code ({@code __kmp_invoke_microtask}, {@code __kmp_invoke_task}); the enter frame
 * that of the runtime entry point the task's code called ({@code __kmpc_barrier},
 * {@code __kmpc_fork_call}, {@code __kmpc_omp_task}, {@code __kmpc_omp_taskwait}). The
 * frame flags are 0x20 (framepointer) on tasks and 0 on the initial task, never the
 * application bit, and are ignored. {@code omp_set_lock} and {@code __kmpc_critical} set no
 * enter frame. The initial task has no exit frame. Region and task ids are the agent's.
 *
 * <h2>Rules</h2>
 * <ol>
 * <li><b>Current task.</b> Level 0 of the sample's task levels. Its frames are the unwound
 *   frames whose CFA lies below its exit frame's CFA; the snapshot is cut there, so the
 *   runtime and the other tasks outward are never unwound.
 * <li><b>Leaf.</b> With an enter frame, the frames inside the runtime entry are dropped and
 *   the entry itself is kept as the leaf ({@code ...;region_fn;__kmpc_barrier}): the user's
 *   call site is its caller, and the entry says what it waits in. Without one, the innermost
 *   run of runtime frames (libomp, or the agent) is collapsed the same way to the frame the
 *   user's code called ({@code ...;locked;omp_set_lock}), system calls under it included.
 * <li><b>Stitching.</b> Above the task's frames comes its context: for an implicit task, the
 *   context that created its region (the ParallelBegin record's context, unwound, cut to the
 *   encountering task's frames between its exit frame and its call to
 *   {@code __kmpc_fork_call}, under that task's own context, recursively), then the region's
 *   construct by its call site ({@link org.ompprof.unwinder.stitch.PathFrame.Construct}: where
 *   the outlined body is not on the stack, a tail call away, the region's node all the same);
 *   for an explicit task, the same from its TaskCreate record. Contexts are computed once and
 *   interned.
 * <li><b>Root.</b> The initial task's frames reach the thread's root; they are shown from
 *   {@code main} (the C library's start-up frames above it are dropped) when the program's
 *   symbol table has {@code main}, else in full.
 * <li><b>Placeholders.</b> State idle, a worker with no task, or a region-end barrier wait
 *   after the region ended (libomp keeps reporting barrier_implicit_parallel until the next
 *   region) → {@code <omp idle>} alone. An implicit task without an exit frame at a barrier
 *   (its code has returned: the region's end barrier) → context;{@code <omp barrier>}. Any
 *   other task without user frames (not started, or finished) → context;{@code <omp runtime>};
 *   a sample between parallel_begin and the new implicit task's start is stitched as the
 *   encountering task (ending in {@code __kmpc_fork_call}) and counted as a runtime window; on
 *   a worker of the new team (its own stack, from the thread's start) as the region's
 *   context;{@code <omp runtime>}, a runtime window too.
 * <li><b>Gaps.</b> A snapshot that ends before the task's exit frame (or before main) gives
 *   context;{@code <truncated>};frames found. A region or task whose creation record was lost
 *   gives the nearest ancestor level's known context;{@code <unknown context>};frames, never
 *   the region's context alone (which would hide the creating code). Frames whose module has
 *   no image are kept as {@code module+0x...}; pcs in no module as {@code 0x...}.
 * </ol>
 *
 * <h2>Cost</h2>
 * Per explicit task recorded: 12 to 24 bytes kept, in arrays indexed by its id (TaskOrigins: its
 * parent and its segment's index; segments are interned), no object. The agent sends a
 * creation's stack only the first time a thread creates a task of that shape (call site,
 * segment length and the code addresses on the stack, hashed); later ones come as (task,
 * parent, shape) entries in TaskBatch records of up to 64 (packed by the agent in 2 to 3 bytes
 * a task) and share the first one's segment, so only distinct shapes are unwound (1-1.5 us each
 * for a six-frame creation path). Per task that samples need: one more map entry for its
 * resolved context.
 */
package org.ompprof.unwinder.stitch;
