package org.ompprof.ui.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ompprof.calltree.profile.DeviceTable;

/** Per device: how many target regions, kernels and transfers, how long, how many bytes each way. */
public record DeviceTotals(List<Row> rows) {
    public record Row(
            int device,
            String type,
            long regions,
            long kernels,
            long kernelNs,
            long toDevice,
            long toDeviceBytes,
            long fromDevice,
            long fromDeviceBytes,
            long transferNs,
            long memoryOps) {}

    public static DeviceTotals of(DeviceTable t) {
        Map<Integer, String> types = new TreeMap<>();
        for (DeviceTable.Device d : t.devices()) types.put(d.number(), d.type());
        Map<Integer, long[]> sums = new TreeMap<>();
        for (DeviceTable.Activity a : t.activities()) {
            long[] s = sums.computeIfAbsent(a.device(), d -> new long[9]);
            switch (a.kind()) {
                case REGION -> s[0]++;
                case KERNEL -> {
                    s[1]++;
                    s[2] += a.durationNs();
                }
                case TRANSFER -> {
                    boolean to = a.detail() == 2 || a.detail() == 18;
                    s[to ? 3 : 5]++;
                    s[to ? 4 : 6] += a.bytes();
                    s[7] += a.durationNs();
                }
                case MEMORY -> s[8]++;
            }
        }
        List<Row> rows = new ArrayList<>();
        sums.forEach((d, s) ->
                rows.add(new Row(d, types.getOrDefault(d, "?"), s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8])));
        return new DeviceTotals(rows);
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table, one line per device, indented by two. */
    public String table() {
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT,
                "  %6s %-14s %7s %7s %11s %16s %16s %13s %7s%n",
                "device",
                "type",
                "regions",
                "kernels",
                "kernel time",
                "to device",
                "from device",
                "transfer time",
                "mem ops"));
        for (Row r : rows) {
            s.append(String.format(
                    Locale.ROOT,
                    "  %6d %-14s %7d %7d %11s %16s %16s %13s %7d%n",
                    r.device(),
                    r.type(),
                    r.regions(),
                    r.kernels(),
                    Report.time(r.kernelNs()),
                    transfers(r.toDevice(), r.toDeviceBytes()),
                    transfers(r.fromDevice(), r.fromDeviceBytes()),
                    Report.time(r.transferNs()),
                    r.memoryOps()));
        }
        return s.toString();
    }

    private static String transfers(long n, long bytes) {
        return n == 0 ? "-" : n + " (" + bytes(bytes) + ")";
    }

    static String bytes(long b) {
        if (b >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        if (b >= 1L << 20) return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        if (b >= 1L << 10) return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        return b + " B";
    }
}
