package org.ompprof.blame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;
import org.ompprof.sampler.wire.Wire;

/**
 * Who makes MPI ranks wait: a sample taken inside a collective call on a rank that came to it
 * before another member did is waiting for that member, and is charged ({@link BlameKind#MPI})
 * to what the late rank ran during the waiting (its samples whose stretch covers it, shared by
 * overlap, its program's own code preferred over its waiting; where only its first sample in
 * the awaited call covers the moment, its last working sample before).
 *
 * <p>The members of one collective are the calls with the same communicator handle and
 * sequence number, as many as the communicator has members (with distinct ranks); the awaited
 * member is the last to enter among the others (all-to-all kinds: allreduce, barrier,
 * allgather(v), alltoall(v), and MPI_Finalize over the whole job), the root for a non-root of
 * bcast and scatter, the last non-root for the root of reduce and gather. A rooted
 * collective's root is known only on a communicator as large as the job (its ranks taken for the
 * job's). A blocking receive, or the wait for a nonblocking one, awaits its message's sender, who
 * is late if it began sending after the receiver began waiting. Waiting in a collective whose
 * members are not all in the profile (a merge of some of the ranks), or whose communicator
 * cannot be told apart (handles are per rank), and in a receive that cannot be matched, finds
 * nobody: unattributed, all of it. What remains of a call's samples (the time after the last member came,
 * calls that await nobody) is no waiting but the call's own cost: it stays in the call's MPI
 * state, and is only counted ({@link Charges#regionLatencyNs}). Times must be on one clock (see
 * the rank clocks' fit).
 */
public final class CrossRankBlame {
    /** A call that waited for nobody: all its time is its own. */
    private static final int OWN = -1;
    /** A call whose awaited member cannot be known: its waiting is unattributed. */
    private static final int UNKNOWN = -2;

    private final List<MpiCall> calls;
    private final JobSamples samples;
    private final int[] awaited;
    private final long[] awaitedEnter;
    private final ChargeSums sums = new ChargeSums();

    private CrossRankBlame(List<MpiCall> calls, JobSamples samples) {
        this.calls = calls;
        this.samples = samples;
        this.awaited = new int[calls.size()];
        this.awaitedEnter = new long[calls.size()];
        Arrays.fill(awaited, OWN);
    }

    /** Charges the MPI waiting of every rank's samples; conservation holds as for the other kinds. */
    public static Charges charge(List<MpiCall> calls, JobSamples samples) {
        CrossRankBlame b = new CrossRankBlame(List.copyOf(calls), samples);
        b.matchCollectives();
        b.matchMessages();
        b.chargeSamples();
        return b.sums.result(List.of(), IntUnaryOperator.identity()); // its nodes are the job tree's own
    }

    private void matchCollectives() {
        IntHashSet ranks = new IntHashSet();
        Map<List<Long>, List<Integer>> instances = new HashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            MpiCall c = calls.get(i);
            ranks.add(c.rank());
            if (c.isCollective() || c.isRooted())
                instances
                        .computeIfAbsent(List.of(c.comm(), c.seq()), k -> new ArrayList<>())
                        .add(i);
        }
        for (List<Integer> members : instances.values()) match(members, ranks.size());
    }

    private void match(List<Integer> members, int jobSize) {
        MpiCall first = calls.get(members.getFirst());
        int size = first.call() == Wire.MPI_CALL_FINALIZE ? jobSize : first.commSize();
        IntHashSet ranks = new IntHashSet();
        boolean whole = members.size() == size;
        for (int i : members) {
            MpiCall c = calls.get(i);
            whole &= ranks.add(c.rank()) && c.call() == first.call() && c.commSize() == first.commSize();
        }
        boolean rootKnown = !first.isRooted() || first.commSize() == jobSize;
        for (int i : members) {
            if (!whole || !rootKnown) awaited[i] = UNKNOWN;
            else awaitFor(i, members);
        }
    }

    /** The member call {@code i} waits for, the last of those it awaits to enter, if after it. */
    private void awaitFor(int i, List<Integer> members) {
        MpiCall c = calls.get(i);
        int late = -1;
        for (int j : members) {
            MpiCall o = calls.get(j);
            if (j == i || !awaits(c, o)) continue;
            if (late < 0 || o.enterNs() > calls.get(late).enterNs()) late = j;
        }
        if (late < 0 || calls.get(late).enterNs() <= c.enterNs()) return; // nobody came after it: OWN
        awaited[i] = calls.get(late).rank();
        awaitedEnter[i] = calls.get(late).enterNs();
    }

    private static boolean awaits(MpiCall c, MpiCall other) {
        return switch (c.call()) {
            case Wire.MPI_CALL_REDUCE, Wire.MPI_CALL_GATHER -> c.rank() == c.peer();
            case Wire.MPI_CALL_BCAST, Wire.MPI_CALL_SCATTER -> c.rank() != c.peer() && other.rank() == c.peer();
            default -> true;
        };
    }

    /**
     * A blocking receive, or a wait for a nonblocking one, waits for its message's sender: the
     * k-th receive a rank posted (by its enter) from a source with a tag matches the k-th message
     * that source sent it with that tag (MPI does not let such messages overtake each other).
     * Only on communicators as large as the job (their ranks taken for the job's), with a known
     * tag; a receive that cannot be matched waits for someone unknown.
     */
    private void matchMessages() {
        IntHashSet jobRanks = new IntHashSet();
        for (MpiCall c : calls) jobRanks.add(c.rank());
        Map<List<Long>, List<Integer>> waits = new HashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            MpiCall c = calls.get(i);
            if (c.call() == Wire.MPI_CALL_WAIT && c.request() != 0)
                waits.computeIfAbsent(List.of((long) c.rank(), c.request()), k -> new ArrayList<>())
                        .add(i);
        }
        Map<List<Long>, List<Integer>> sends = new HashMap<>();
        Map<List<Long>, List<int[]>> receives = new HashMap<>(); // {posting call, waiting call}
        for (int i = 0; i < calls.size(); i++) {
            MpiCall c = calls.get(i);
            int waiter = switch (c.call()) {
                case Wire.MPI_CALL_RECV -> i;
                case Wire.MPI_CALL_IRECV -> firstWaitAfter(waits.get(List.of((long) c.rank(), c.request())), c);
                default -> -1;
            };
            boolean matchable = c.commSize() == jobRanks.size() && c.tag() >= 0;
            if (c.call() == Wire.MPI_CALL_SEND || c.call() == Wire.MPI_CALL_ISEND) {
                if (matchable && c.peer() >= 0)
                    sends.computeIfAbsent(message(c, c.rank(), c.peer()), k -> new ArrayList<>())
                            .add(i);
            } else if (waiter >= 0) {
                awaited[waiter] = UNKNOWN; // until its message is found
                int source = c.peer() >= 0 ? c.peer() : calls.get(waiter).peer(); // a wait names the actual one
                if (matchable && source >= 0)
                    receives.computeIfAbsent(message(c, source, c.rank()), k -> new ArrayList<>())
                            .add(new int[] {i, waiter});
            }
        }
        receives.forEach((key, posted) -> {
            List<Integer> sent = sends.getOrDefault(key, List.of());
            sent.sort(this::byEnter);
            posted.sort((x, y) -> byEnter(x[0], y[0]));
            for (int k = 0; k < Math.min(sent.size(), posted.size()); k++) awaitSender(posted.get(k)[1], sent.get(k));
        });
    }

    private static List<Long> message(MpiCall c, int source, int destination) {
        return List.of(c.comm(), (long) source, (long) destination, (long) c.tag());
    }

    private int byEnter(int a, int b) {
        return Long.compare(calls.get(a).enterNs(), calls.get(b).enterNs());
    }

    /** The wait for {@code irecv}'s request: the first such wait it entered after posting it (requests are reused). */
    private int firstWaitAfter(List<Integer> waitsForRequest, MpiCall irecv) {
        if (waitsForRequest == null) return -1;
        int best = -1;
        for (int w : waitsForRequest) {
            long enter = calls.get(w).enterNs();
            if (enter >= irecv.enterNs() && (best < 0 || enter < calls.get(best).enterNs())) best = w;
        }
        return best;
    }

    private void awaitSender(int waiter, int send) {
        MpiCall w = calls.get(waiter), s = calls.get(send);
        if (s.enterNs() <= w.enterNs()) {
            awaited[waiter] = OWN; // the message was on its way: the wait is the transfer's own
            return;
        }
        awaited[waiter] = s.rank();
        awaitedEnter[waiter] = s.enterNs();
    }

    private void chargeSamples() {
        IntObjectHashMap<int[]> byThread = callsByThread();
        for (int r : samples.rankNumbers()) {
            JobSamples.Rank rank = samples.rank(r);
            for (int i = 0; i < rank.size(); i++) {
                if (!rank.inMpi(i)) continue;
                int call = callAt(byThread.get(rank.thread[i]), rank.time[i]);
                chargeSample(rank, i, call);
            }
        }
    }

    private void chargeSample(JobSamples.Rank rank, int i, int call) {
        long t = rank.time[i], w = rank.weight[i];
        int thread = rank.thread[i];
        if (call < 0 || awaited[call] == OWN) {
            sums.notWaiting(BlameKind.MPI, w);
            return;
        }
        if (awaited[call] == UNKNOWN) {
            sums.waited(BlameKind.MPI, w);
            sums.unattributed(thread, BlameKind.MPI, w);
            return;
        }
        MpiCall c = calls.get(call);
        long from = Math.max(t - w, c.enterNs()), to = Math.min(Math.min(t, c.exitNs()), awaitedEnter[call]);
        long waiting = Math.max(0, to - from);
        long charged = waiting == 0 ? 0 : spread(samples.rank(awaited[call]), from, to, waiting);
        sums.waited(BlameKind.MPI, waiting);
        if (charged < waiting) sums.unattributed(thread, BlameKind.MPI, waiting - charged);
        sums.notWaiting(BlameKind.MPI, w - waiting);
    }

    /**
     * Charges {@code amount} to the late rank's samples covering [from, to) by their overlap with
     * it, working ones if any; returns what was charged (0 if none covers it).
     */
    private long spread(JobSamples.Rank late, long from, long to, long amount) {
        if (late == null) return 0;
        List<long[]> working = new ArrayList<>(), any = new ArrayList<>(); // {sample, overlap}
        for (int j = late.firstAtOrAfter(from); j < late.size() && late.time[j] < to + late.maxWeight; j++) {
            long overlap = Math.min(late.time[j], to) - Math.max(late.time[j] - late.weight[j], from);
            if (overlap <= 0) continue;
            (late.working(j) ? working : any).add(new long[] {j, overlap});
        }
        if (working.isEmpty()) {
            // a sample stands for the time before it: the late rank's first sample inside its call
            // covers the end of its work too, which its last working sample just before shows
            int before = lastWorkingBefore(late, from);
            if (before >= 0) working.add(new long[] {before, 1});
        }
        List<long[]> share = working.isEmpty() ? any : working;
        long total = 0;
        long[] biggest = null;
        for (long[] o : share) {
            total += o[1];
            if (biggest == null || o[1] > biggest[1]) biggest = o;
        }
        if (biggest == null) return 0;
        long left = amount;
        for (long[] o : share) {
            long part = Math.min(left, (long) Math.floor((double) amount * o[1] / total));
            chargeTo(late, (int) o[0], part);
            left -= part;
        }
        chargeTo(late, (int) biggest[0], left); // whole nanoseconds: the remainder to the largest share
        return amount;
    }

    /** The late rank's last working sample taken at or before {@code t}, within one sample weight; or -1. */
    private static int lastWorkingBefore(JobSamples.Rank late, long t) {
        for (int j = late.firstAtOrAfter(t + 1) - 1; j >= 0 && late.time[j] >= t - late.maxWeight; j--)
            if (late.working(j)) return j;
        return -1;
    }

    private void chargeTo(JobSamples.Rank late, int sample, long ns) {
        sums.charge(late.node[sample], late.thread[sample], BlameKind.MPI, ns);
    }

    /** Each thread's calls by enter time (indices into calls). */
    private IntObjectHashMap<int[]> callsByThread() {
        IntObjectHashMap<List<Integer>> lists = new IntObjectHashMap<>();
        for (int i = 0; i < calls.size(); i++)
            lists.getIfAbsentPut(calls.get(i).thread(), ArrayList::new).add(i);
        IntObjectHashMap<int[]> out = new IntObjectHashMap<>();
        lists.forEachKeyValue((thread, l) -> out.put(
                thread,
                l.stream()
                        .sorted((a, b) -> Long.compare(
                                calls.get(a).enterNs(), calls.get(b).enterNs()))
                        .mapToInt(Integer::intValue)
                        .toArray()));
        return out;
    }

    /** The call of this thread that time {@code t} falls in (the last entered at or before it), or -1. */
    private int callAt(int[] threadCalls, long t) {
        if (threadCalls == null) return -1;
        int lo = 0, hi = threadCalls.length - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (calls.get(threadCalls[mid]).enterNs() <= t) {
                found = mid;
                lo = mid + 1;
            } else hi = mid - 1;
        }
        if (found < 0) return -1;
        int call = threadCalls[found];
        return t <= calls.get(call).exitNs() ? call : -1;
    }
}
