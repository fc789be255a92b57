package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ompprof.blame.MpiCall;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.LineTable;
import org.ompprof.calltree.profile.MpiCallTable;
import org.ompprof.calltree.profile.MutexTable;
import org.ompprof.calltree.profile.Profile;
import org.ompprof.calltree.profile.RegionTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.unwinder.stitch.StitchCounters;

/**
 * Merges profiles one at a time into one: trees by path (values added), threads kept apart by
 * renumbering (input i's thread t becomes t plus the thread spans of the inputs before it),
 * region rows and mutex rows kept per input thread, device activities kept with their devices
 * renumbered likewise (input i's device d becomes d plus the device spans of the inputs before
 * it), line times and counters added, metadata kept per run
 * ({@link RunMetadata}). Only the output is held; each input can be dropped once added, and
 * its timelines are carried across by the {@link InputMapping} {@link #add} returns, so a
 * caller can stream them. Merging is associative: merge(merge(a, b), c) and
 * merge(a, merge(b, c)) hold the same paths, values, threads, rows and metadata.
 */
public final class ProfileMerger {
    private final CallingContextTree tree = CallingContextTree.create();
    private final List<RegionTable.Row> regions = new ArrayList<>();
    private final Map<RegionTable.Region, Integer> instances = new java.util.HashMap<>();
    private final List<MutexTable.Row> mutexes = new ArrayList<>();
    private final LineTable.Builder lines = new LineTable.Builder();
    private final Map<String, Long> stitch = new TreeMap<>();
    private final Map<String, Long> blame = new TreeMap<>();
    private final RunMetadata metadata = new RunMetadata();
    private int threadSpan;
    private long samples;
    private final List<DeviceTable.Device> devices = new ArrayList<>();
    private final List<DeviceTable.Activity> activities = new ArrayList<>();
    private long devicesUnmatched;
    private long devicesLate;
    private int deviceSpan;
    private final List<MpiCall> mpiCalls = new ArrayList<>();
    private final List<MpiCallTable.ClockMeasure> clocks = new ArrayList<>();
    /** The timelines of the inputs that are MPI ranks: cross-rank blame looks across them all. */
    private final List<Timeline> rankTimelines = new ArrayList<>();

    private boolean lastIsRank;

    /**
     * Adds an input profile (its timelines are the caller's to carry across), with its run's
     * metadata and thread span (its threads are numbered 0 .. threadSpan-1); {@code source}
     * names it in the metadata (its file).
     *
     * @throws IllegalArgumentException if the threads of all inputs do not fit the thread numbers a tree has
     */
    public InputMapping add(Profile input, Map<String, String> inputMetadata, int inputThreadSpan, String source) {
        if (inputThreadSpan < 0) throw new IllegalArgumentException("negative thread span " + inputThreadSpan);
        int offset = threadSpan;
        long span = (long) offset + inputThreadSpan;
        if (span - 1 > CallingContextTree.MAX_THREAD) {
            throw new IllegalArgumentException(
                    "the inputs have more than " + (CallingContextTree.MAX_THREAD + 1) + " threads between them");
        }
        int[] nodeMap = tree.addAll(input.tree(), t -> t + offset);
        RegionTable inputRegions = input.regions().remapped(nodeMap, offset);
        regions.addAll(inputRegions.rows());
        // every row of a region repeats its run's instance count; the merge's count is the runs' sum
        inputRegions.rows().stream()
                .collect(java.util.stream.Collectors.toMap(
                        RegionTable.Row::region, RegionTable.Row::instances, (x, y) -> x))
                .forEach((region, n) -> instances.merge(region, n, Integer::sum));
        mutexes.addAll(input.mutexes().remapped(nodeMap).rows());
        lines.addAll(input.lines(), nodeMap);
        input.counters().asMap().forEach((k, v) -> stitch.merge(k, v, Long::sum));
        input.blame().forEach((k, v) -> blame.merge(k, v, Long::sum));
        metadata.add(inputMetadata, source, offset);
        DeviceTable inputDevices = input.devices().remapped(nodeMap, offset, deviceSpan);
        devices.addAll(inputDevices.devices());
        activities.addAll(inputDevices.activities());
        devicesUnmatched += inputDevices.unmatched();
        devicesLate += inputDevices.late();
        deviceSpan += input.devices().span();
        MpiCallTable mpi = input.mpi().remapped(offset);
        mpiCalls.addAll(mpi.calls());
        clocks.addAll(mpi.clocks());
        lastIsRank = !mpi.isEmpty();
        threadSpan = (int) span;
        samples += input.samples();
        InputMapping mapping = new InputMapping(offset, nodeMap);
        input.timelines().forEach(t -> timeline(mapping.remap(t)));
        return mapping;
    }

    /**
     * One of the last input's timelines (or a run of one), as {@link #add}'s mapping gave it: kept
     * while the result is made if that input is an MPI rank.
     */
    public void timeline(Timeline remapped) {
        if (lastIsRank) rankTimelines.add(remapped);
    }

    /**
     * The inputs added so far, as one profile without timelines; its samples are the inputs' added.
     * Where they are MPI ranks, their MPI waiting is charged across ranks ({@link JobBlame}).
     */
    public Profile result() {
        MpiCallTable mpi = new MpiCallTable(mpiCalls, clocks);
        if (!mpi.calls().isEmpty()) blame.putAll(JobBlame.apply(tree, mpi, rankTimelines, metadata::rankOfThread));
        // a stable sort keeps equal waits in input order, whatever the grouping of the merges
        List<MutexTable.Row> byWait = new ArrayList<>(mutexes);
        byWait.sort(Comparator.comparingLong(MutexTable.Row::waitedNs).reversed());
        List<RegionTable.Row> counted = regions.stream()
                .map(r -> new RegionTable.Row(
                        r.regionNode(),
                        instances.get(r.region()),
                        r.callSiteFile(),
                        r.callSiteLine(),
                        r.thread(),
                        r.ns(),
                        r.bodyNodes()))
                .toList();
        List<DeviceTable.Activity> byStart = new ArrayList<>(activities); // stable: equal starts keep input order
        byStart.sort(Comparator.comparingLong(DeviceTable.Activity::startNs));
        return new Profile(
                tree,
                List.of(),
                StitchCounters.fromMap(stitch),
                blame,
                new RegionTable(counted),
                new MutexTable(byWait),
                lines.build(),
                samples,
                new DeviceTable(devices, byStart, devicesUnmatched, devicesLate),
                mpi);
    }

    /** The metadata of the inputs added so far ({@link RunMetadata}). */
    public Map<String, String> metadata() {
        return metadata.result();
    }

    /** The threads of the inputs added so far are numbered 0 .. threadSpan-1. */
    public int threadSpan() {
        return threadSpan;
    }
}
