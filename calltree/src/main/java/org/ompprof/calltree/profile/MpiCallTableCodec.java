package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.blame.MpiCall;
import org.ompprof.sampler.wire.Wire;

/**
 * The MPI_CALLS section: the calls (rank, thread, kind, communicator, its size, sequence, peer,
 * tag, enter, duration, request) in order, then the clock measures (rank, kind, local time, rank 0's time,
 * round trip).
 */
public final class MpiCallTableCodec {
    private MpiCallTableCodec() {}

    public static byte[] encode(MpiCallTable t) {
        ByteSink out = new ByteSink();
        out.varint(t.calls().size());
        for (MpiCall c : t.calls()) {
            out.varint(c.rank());
            out.varint(c.thread());
            out.varint(c.call());
            out.varint(c.comm());
            out.varint(c.commSize());
            out.varint(c.seq());
            out.zigzag(c.peer());
            out.zigzag(c.tag());
            out.varint(c.enterNs());
            out.varint(c.exitNs() - c.enterNs());
            out.varint(c.request());
        }
        out.varint(t.clocks().size());
        for (MpiCallTable.ClockMeasure m : t.clocks()) {
            out.varint(m.rank());
            out.varint(m.call());
            out.varint(m.localNs());
            out.varint(m.rank0Ns());
            out.varint(m.roundTripNs());
        }
        return out.toByteArray();
    }

    public static MpiCallTable decode(byte[] payload) {
        ByteSource in = new ByteSource(payload);
        int n = in.count(11, "MPI calls");
        List<MpiCall> calls = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int rank = in.bounded(Integer.MAX_VALUE, "rank"), thread = in.bounded(Integer.MAX_VALUE, "thread");
            int call = in.bounded(Wire.MPI_CALLS - 1, "call kind");
            long comm = in.varint();
            int size = in.bounded(Integer.MAX_VALUE, "communicator size");
            long seq = in.varint();
            long peer = in.zigzag(), tag = in.zigzag();
            long enter = in.varint(), duration = in.varint(), request = in.varint();
            if (peer != (int) peer || tag != (int) tag) throw in.fail("peer or tag beyond 32 bits");
            if (enter < 0 || duration < 0 || enter + duration < enter) throw in.fail("impossible call times");
            calls.add(new MpiCall(
                    rank, thread, call, comm, size, seq, (int) peer, (int) tag, enter, enter + duration, request));
        }
        int m = in.count(5, "clock measures");
        List<MpiCallTable.ClockMeasure> clocks = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            int rank = in.bounded(Integer.MAX_VALUE, "rank"), call = in.bounded(Wire.MPI_CALLS - 1, "call kind");
            long local = in.varint(), rank0 = in.varint(), trip = in.varint();
            if (local < 0 || rank0 < 0 || trip < 0) throw in.fail("impossible clock measure");
            clocks.add(new MpiCallTable.ClockMeasure(rank, call, local, rank0, trip));
        }
        in.end("MPI call table");
        return new MpiCallTable(calls, clocks);
    }
}
