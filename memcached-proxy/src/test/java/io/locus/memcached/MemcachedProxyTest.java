package io.locus.memcached;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

class MemcachedProxyTest {
    @Test
    void leakDetection_offByDefault_butAnExplicitLevelWins() {
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        String property = System.getProperty("io.netty.leakDetection.level");
        try {
            System.clearProperty("io.netty.leakDetection.level");
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
            MemcachedProxy.defaultLeakDetectionOff();
            assertEquals(ResourceLeakDetector.Level.DISABLED, ResourceLeakDetector.getLevel());

            System.setProperty("io.netty.leakDetection.level", "paranoid");
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
            MemcachedProxy.defaultLeakDetectionOff();
            assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel());
        } finally {
            if (property == null) {
                System.clearProperty("io.netty.leakDetection.level");
            } else {
                System.setProperty("io.netty.leakDetection.level", property);
            }
            ResourceLeakDetector.setLevel(before);
        }
    }
}
