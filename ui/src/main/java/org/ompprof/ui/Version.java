package org.ompprof.ui;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version Maven stamped into the build. */
public final class Version {
    private Version() {}

    public static String get() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
