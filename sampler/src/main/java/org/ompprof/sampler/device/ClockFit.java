package org.ompprof.sampler.device;

/**
 * A device clock mapped onto the host clock: {@code host = anchorHost + slope * (device - anchorDevice)}.
 * The anchors are kept as longs so that nanosecond timestamps far from zero lose no precision;
 * only the difference from the anchor goes through floating point.
 *
 * @param slope host nanoseconds per device nanosecond (1 + drift)
 * @param inliers how many clock pairs the fit rests on
 * @param pairs how many clock pairs were offered
 */
public record ClockFit(long anchorDevice, long anchorHost, double slope, int inliers, int pairs) {

    /** The identity, for a device whose clock is the host's (the host device, or no pairs at all). */
    public static ClockFit identity() {
        return new ClockFit(0, 0, 1.0, 0, 0);
    }

    /** A device timestamp on the host clock. */
    public long toHost(long deviceNs) {
        return anchorHost + Math.round(slope * (deviceNs - anchorDevice));
    }

    /** Drift of the device clock against the host's, in parts per million. */
    public double driftPpm() {
        return (slope - 1.0) * 1e6;
    }

    /** Host minus device time at the anchor. */
    public long offsetNs() {
        return anchorHost - anchorDevice;
    }
}
