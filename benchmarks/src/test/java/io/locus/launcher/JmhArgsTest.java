package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JmhArgsTest {
    @Test
    void defaults_profiler_andJson_comeBeforeTheCallersArguments() {
        assertEquals(
                List.of(
                        "-f",
                        "1",
                        "-wi",
                        "2",
                        "-i",
                        "3",
                        "-w",
                        "1s",
                        "-r",
                        "1s",
                        "-prof",
                        JmhArgs.CPU_TIME,
                        "-rf",
                        "json",
                        "-rff",
                        "target/bench/jmh-abc.json",
                        "memcached.bench.jmh",
                        "-p",
                        "kind=GET"),
                JmhArgs.of(List.of("memcached.bench.jmh", "-p", "kind=GET"), "target/bench/jmh-abc.json"));
    }

    @Test
    void givenOption_replacesItsDefault_andAGivenResultFormatOrFile_isLeftToTheCaller() {
        assertEquals(
                List.of(
                        "-wi",
                        "2",
                        "-i",
                        "3",
                        "-w",
                        "1s",
                        "-r",
                        "1s",
                        "-prof",
                        JmhArgs.CPU_TIME,
                        "-f",
                        "3",
                        "-rff",
                        "x.json"),
                JmhArgs.of(List.of("-f", "3", "-rff", "x.json"), "unused.json"));
    }
}
