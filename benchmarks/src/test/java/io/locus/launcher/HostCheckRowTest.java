package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostCheckRowTest {
    @Test
    void parse_takesTheFirstRowLine() {
        assertArrayEquals(
                new String[] {"memcached", "OK", "1.2", "set and get"},
                HostCheckRow.parse(List.of(
                        "starting", "LOCUS-ROW\tmemcached\tOK\t1.2\tset and get", "LOCUS-ROW\tother\tOK\t0\tx")));
        assertNull(HostCheckRow.parse(List.of("no row here")));
    }

    @Test
    void table_alignsColumnsAsColumnDashT() {
        assertEquals(
                """
                HOST       STATUS  SECONDS  WHAT WAS DONE
                cassandra  OK      12.3     wrote and read a row
                hdfs       FAIL    -        no status printed; see target/demo-hdfs.log
                """,
                HostCheckRow.table(List.of(
                        new String[] {"cassandra", "OK", "12.3", "wrote and read a row"},
                        HostCheckRow.failed("hdfs", "target/demo-hdfs.log"))));
    }
}
