package org.ompprof.ui.view;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.calltree.profile.DeviceTable;

/**
 * Where a device's activities fall in the pixel columns of a timeline window: one bar per
 * activity that overlaps the window, at least one pixel wide so that a microsecond kernel in a
 * minute-long view still shows.
 */
final class DeviceBars {
    /**
     * @param x0 first column, inclusive; @param x1 last column, exclusive; @param index the activity's index in the
     * table
     */
    record Bar(int x0, int x1, DeviceTable.Kind kind, int index) {}

    private DeviceBars() {}

    /** The devices with kernels or transfers, in number order: one lane each. */
    static List<Integer> devices(DeviceTable t) {
        return t.activities().stream()
                .filter(a -> a.kind() == DeviceTable.Kind.KERNEL || a.kind() == DeviceTable.Kind.TRANSFER)
                .map(DeviceTable.Activity::device)
                .distinct()
                .sorted()
                .toList();
    }

    /** Bars of {@code device}'s regions, kernels and transfers in [from, to) over {@code px} columns, regions first. */
    static List<Bar> layout(DeviceTable t, int device, long from, long to, int px) {
        List<Bar> regions = new ArrayList<>(), work = new ArrayList<>();
        double span = Math.max(1, to - from);
        List<DeviceTable.Activity> all = t.activities();
        for (int i = 0; i < all.size(); i++) {
            DeviceTable.Activity a = all.get(i);
            if (a.device() != device || a.kind() == DeviceTable.Kind.MEMORY) continue;
            if (a.endNs() < from || a.startNs() >= to) continue;
            int x0 = (int) Math.max(0, Math.floor((a.startNs() - from) / span * px));
            int x1 = (int) Math.min(px, Math.ceil((a.endNs() - from) / span * px));
            x0 = Math.min(x0, px - 1);
            x1 = Math.max(x1, x0 + 1);
            (a.kind() == DeviceTable.Kind.REGION ? regions : work).add(new Bar(x0, x1, a.kind(), i));
        }
        regions.addAll(work);
        return regions;
    }
}
