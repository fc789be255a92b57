package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.eclipse.collections.api.block.procedure.primitive.LongObjectProcedure;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.ompprof.sampler.omp.TaskFlags;
import org.ompprof.sampler.record.TaskLevel;

/**
 * The calling context of a parallel region or task: the creating task's segment under the
 * creating task's own context, recursively up to the initial task (the program's root).
 * Nested regions go through the implicit task that encountered them, tasks through the task
 * that created them. Each context is computed once, when a sample first needs it, and shared:
 * by every thread that stitches, one at a time.
 */
final class ContextResolver {
    private enum Kind {
        TASK,
        /** Where a region was opened: the opening context. */
        REGION,
        /** Inside a region: its opening context and its construct. */
        BODY
    }

    private record Step(Kind kind, long id, Creations.Origin origin) {}

    private final Creations creations;
    private final Interner interner;
    private final StitchCounters.Tally tally;
    /** A region's call site (a return address) as a path element; null for one in no module. */
    private final LongFunction<PathFrame.Code> sites;

    private final LongObjectHashMap<ContextNode> regionContexts = new LongObjectHashMap<>();
    private final LongObjectHashMap<ContextNode> bodyContexts = new LongObjectHashMap<>();
    private final LongObjectHashMap<ContextNode> taskContexts = new LongObjectHashMap<>();
    /** Each call site's construct segment, {@link #NO_CONSTRUCT} for a site in no module. */
    private final LongObjectHashMap<Segment> constructs = new LongObjectHashMap<>();

    private static final Segment NO_CONSTRUCT = new Segment(List.of(), Gap.NONE);

    ContextResolver(
            Creations creations, Interner interner, StitchCounters.Tally tally, LongFunction<PathFrame.Code> sites) {
        this.creations = creations;
        this.interner = interner;
        this.tally = tally;
        this.sites = sites;
    }

    /**
     * The context in which a sample's current task (level 0 of {@code levels}) runs. If its
     * creation (or an ancestor's) was not recorded, the nearest ancestor level whose context
     * is known stands in for it, followed by a {@link Placeholder#UNKNOWN_CONTEXT} for the
     * frames in between: part of a path with its gap marked, rather than nothing.
     */
    synchronized ContextNode ofLevels(List<TaskLevel> levels) {
        ContextNode c = ofTask(levels.getFirst());
        for (int i = 1; !c.isKnown() && i < levels.size(); i++) {
            ContextNode outer = ofTask(levels.get(i));
            if (outer.isKnown()) return interner.child(outer, Segment.UNKNOWN);
        }
        return c;
    }

    /**
     * The context in which the task runs: the root for the initial task, the creation context
     * for an explicit task, its region's creation context and construct ({@link PathFrame.Construct}) for an implicit
     * task. An explicit
     * task whose creation was not recorded has an unknown context: its region's would silently
     * drop the frames of the code that created it.
     */
    synchronized ContextNode ofTask(TaskLevel task) {
        if ((task.taskFlags() & TaskFlags.INITIAL) != 0) return ContextNode.ROOT;
        long id = task.taskId();
        if (creations.tasks.contains(id)) return resolve(Kind.TASK, id);
        if (task.explicit()) return ContextNode.UNKNOWN;
        long region = task.parallelId() != 0 ? task.parallelId() : creations.regionOfImplicitTask.getIfAbsent(id, 0);
        if (region == 0) return creations.initialTasks.contains(id) ? ContextNode.ROOT : ContextNode.UNKNOWN;
        return resolve(Kind.BODY, region);
    }

    /** The context in which a parallel region was created (the root for the program's implicit outermost region). */
    synchronized ContextNode ofRegion(long regionId) {
        return resolve(Kind.REGION, regionId);
    }

    /**
     * {@link #ofRegion} of every region whose creation was recorded, as counted by {@code action}: the
     * same contexts (and the same links cached and counted), without a walk per region, since a
     * region's context is its segment under its creating task's, and that task's is cached.
     */
    synchronized void forEachRecordedRegion(LongObjectProcedure<ContextNode> action) {
        Creations.Origin[] last = {null}; // regions come in runs from one task and one call site
        ContextNode[] lastNode = {null};
        creations.regions.forEachKeyValue((id, origin) -> {
            ContextNode known = regionContexts.get(id);
            if (known == null && creations.initialRegions.contains(id)) {
                known = ContextNode.ROOT;
            } else if (known == null) {
                boolean same = last[0] != null
                        && last[0].parentTaskId() == origin.parentTaskId()
                        && last[0].segment() == origin.segment();
                if (!same) {
                    last[0] = origin;
                    lastNode[0] = interner.child(resolve(Kind.TASK, origin.parentTaskId()), origin.segment());
                }
                known = lastNode[0];
                regionContexts.put(id, known);
                tally.contextsResolved++;
            }
            action.value(id, known);
        });
    }

    /** The context that launched a target construct: its segment under the encountering task's context. */
    synchronized ContextNode ofTarget(long targetId) {
        Creations.Origin o = creations.targets.get(targetId);
        if (o == null) return ContextNode.UNKNOWN;
        return interner.child(resolve(Kind.TASK, o.parentTaskId()), o.segment());
    }

    /**
     * Where {@code thread} released a written mutex hold at {@code releaseNs}: the release site's segment under the
     * holding task's context; null if the agent sent no site for that release.
     */
    synchronized ContextNode ofReleaseSite(int thread, long releaseNs) {
        LongObjectHashMap<Creations.Origin> sites = creations.releaseSites.get(thread);
        Creations.Origin o = sites == null ? null : sites.get(releaseNs);
        if (o == null) return null;
        return interner.child(resolve(Kind.TASK, o.parentTaskId()), o.segment());
    }

    /** How many distinct contexts there are so far (they are interned as they are resolved). */
    synchronized int distinctContexts() {
        return interner.distinctContexts();
    }

    /** How many creations had their context folded onto an ancestor's so far ({@link RecursionFold}). */
    synchronized long foldedContexts() {
        return interner.folded();
    }

    /** Walks up until a known context, then builds the chain back down, caching every link. */
    private ContextNode resolve(Kind kind, long id) {
        ContextNode known = cache(kind).get(id);
        if (known != null) return known; // the common case: no walk, no allocation
        List<Step> pending = new ArrayList<>();
        ContextNode base = null;
        // a cycle in damaged data ends here: a region takes three steps (inside it, where it was opened, the task
        // that opened it), a task one
        int guard = 3 * creations.regions.size() + creations.tasks.size() + 2;
        while (base == null) {
            if (--guard < 0) {
                base = ContextNode.UNKNOWN;
            } else if (kind == Kind.TASK) {
                base = taskContexts.get(id);
                if (base != null) break;
                Creations.Origin o = creations.tasks.get(id);
                if (o != null) {
                    pending.add(new Step(kind, id, o));
                    id = o.parentTaskId();
                } else if (creations.initialTasks.contains(id)) {
                    base = ContextNode.ROOT;
                } else {
                    id = creations.regionOfImplicitTask.getIfAbsent(id, 0);
                    kind = Kind.BODY;
                    if (id == 0) base = ContextNode.UNKNOWN;
                }
            } else if (kind == Kind.BODY) {
                base = bodyContexts.get(id);
                if (base != null) break;
                pending.add(new Step(kind, id, null));
                kind = Kind.REGION;
            } else {
                base = regionContexts.get(id);
                if (base != null) break;
                Creations.Origin o = creations.regions.get(id);
                if (creations.initialRegions.contains(id)) {
                    base = ContextNode.ROOT;
                } else if (o != null) {
                    pending.add(new Step(kind, id, o));
                    id = o.parentTaskId();
                    kind = Kind.TASK;
                } else {
                    base = ContextNode.UNKNOWN;
                }
            }
        }
        ContextNode node = base;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Step s = pending.get(i);
            if (s.kind() == Kind.BODY) {
                Segment construct = node.isKnown() ? construct(s.id()) : NO_CONSTRUCT;
                if (construct != NO_CONSTRUCT) node = interner.child(node, construct);
                bodyContexts.put(s.id(), node);
                continue;
            }
            node = interner.child(node, s.origin().segment());
            cache(s.kind()).put(s.id(), node);
            tally.contextsResolved++;
        }
        return node;
    }

    private LongObjectHashMap<ContextNode> cache(Kind kind) {
        return switch (kind) {
            case TASK -> taskContexts;
            case REGION -> regionContexts;
            case BODY -> bodyContexts;
        };
    }

    /**
     * The construct that opened a region, as the one frame inside it, interned per call site; {@link #NO_CONSTRUCT}
     * for the program's implicit outermost region and a region whose call site is unknown.
     */
    private Segment construct(long regionId) {
        long site = creations.initialRegions.contains(regionId) ? 0 : creations.regionCallSite.getIfAbsent(regionId, 0);
        if (site == 0) return NO_CONSTRUCT;
        Segment known = constructs.get(site);
        if (known != null) return known;
        PathFrame.Code code = sites.apply(site);
        Segment made = code == null
                ? NO_CONSTRUCT
                : interner.segment(new Segment(List.of(new PathFrame.Construct(code)), Gap.NONE));
        constructs.put(site, made);
        return made;
    }
}
