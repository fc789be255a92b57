package org.ompprof.calltree.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ompprof.sampler.recording.Metadata;

/**
 * The metadata of merged runs. Every run keeps all its entries under {@code input.N.KEY} (N
 * counts the runs from 0, in merge order), with {@code input.N.source} (the file it came from)
 * and {@code input.N.thread_offset} (what was added to its thread numbers); the entries on
 * which all runs agree also stay at the top, so that a merge of runs of one program still says
 * its mode and rate. A merged input contributes its runs, not itself, so merging is
 * associative: the same runs in the same order give the same metadata however they are grouped.
 */
public final class RunMetadata {
    public static final String INPUTS = "merged_inputs";
    public static final String PREFIX = "input.";
    public static final String SOURCE = "source";
    public static final String THREAD_OFFSET = "thread_offset";

    private final List<Map<String, String>> runs = new ArrayList<>();

    /** Adds an input's runs: itself when it is one run, else the runs it was merged from. */
    public void add(Map<String, String> metadata, String source, int threadOffset) {
        if (!metadata.containsKey(INPUTS)) {
            Map<String, String> run = new LinkedHashMap<>(metadata);
            run.put(SOURCE, source);
            run.put(THREAD_OFFSET, Integer.toString(threadOffset));
            runs.add(run);
            return;
        }
        for (Map<String, String> run : runsOf(metadata)) {
            run.put(THREAD_OFFSET, Long.toString(parseOffset(run.get(THREAD_OFFSET)) + threadOffset));
            runs.add(run);
        }
    }

    public int runs() {
        return runs.size();
    }

    /**
     * The MPI rank of a thread of the merged profile: the rank of the run its number falls in (the
     * run with the highest thread offset at or below it), or -1 (no run, or a run that is no rank).
     */
    public int rankOfThread(int thread) {
        long best = -1;
        int rank = -1;
        for (Map<String, String> run : runs) {
            long offset = parseOffset(run.get(THREAD_OFFSET));
            if (offset <= thread && offset >= best) {
                best = offset;
                rank = (int) parseOffset(run.getOrDefault(Metadata.MPI_RANK, "-1"));
            }
        }
        return rank;
    }

    public Map<String, String> result() {
        Map<String, String> out = new LinkedHashMap<>(common());
        out.put(INPUTS, Integer.toString(runs.size()));
        for (int i = 0; i < runs.size(); i++) {
            String prefix = PREFIX + i + ".";
            runs.get(i).forEach((k, v) -> out.put(prefix + k, v));
        }
        return out;
    }

    /** The entries every run has with the same value (none of a merge's own keys). */
    private Map<String, String> common() {
        Map<String, String> out = new LinkedHashMap<>();
        if (runs.isEmpty()) return out;
        for (Map.Entry<String, String> e : runs.getFirst().entrySet()) {
            if (e.getKey().equals(SOURCE) || e.getKey().equals(THREAD_OFFSET)) continue;
            if (runs.stream().allMatch(r -> e.getValue().equals(r.get(e.getKey())))) out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** The runs of a merged profile's metadata, by their index. */
    private static List<Map<String, String>> runsOf(Map<String, String> metadata) {
        TreeMap<Integer, Map<String, String>> byIndex = new TreeMap<>();
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(PREFIX)) continue;
            int dot = key.indexOf('.', PREFIX.length());
            if (dot < 0) continue;
            int index;
            try {
                index = Integer.parseInt(key.substring(PREFIX.length(), dot));
            } catch (NumberFormatException notARun) {
                continue;
            }
            byIndex.computeIfAbsent(index, i -> new LinkedHashMap<>()).put(key.substring(dot + 1), e.getValue());
        }
        return new ArrayList<>(byIndex.values());
    }

    private static long parseOffset(String value) {
        try {
            return value == null ? 0 : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
