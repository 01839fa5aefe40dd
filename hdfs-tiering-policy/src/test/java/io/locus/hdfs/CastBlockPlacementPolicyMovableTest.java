package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.net.NetworkTopology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the Balancer is told when it asks whether a replica may move: the policy runs in the Balancer's process and sees
 * only DataNodes, with the plan of {@link CastBlockPlacementPolicyIT} (groups {@code eph} and {@code pers}).
 */
class CastBlockPlacementPolicyMovableTest {
    private CastBlockPlacementPolicy cast;
    private BlockPlacementPolicyDefault dflt;

    private static DatanodeInfo node(int i, String rack) {
        DatanodeID id = new DatanodeID("127.0.0." + i, "host" + i, "uuid-" + i, 9866, 9864, 9865, 9867);
        return new DatanodeInfo.DatanodeInfoBuilder()
                .setNodeID(id)
                .setNetworkLocation(rack)
                .build();
    }

    @BeforeEach
    void start() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "movable-test"));
        Path plan = dir.resolve("plan.json");
        Files.writeString(plan, CastBlockPlacementPolicyIT.plan("ephSSD"));
        Configuration conf = new Configuration(false);
        conf.set(CastBlockPlacementPolicy.PLAN_PATH_KEY, plan.toAbsolutePath().toString());
        conf.set(CastBlockPlacementPolicy.PLAN_CHECK_MS_KEY, "3600000");
        cast = new CastBlockPlacementPolicy();
        cast.initialize(conf, null, NetworkTopology.getInstance(conf), null);
        assertTrue(cast.reload(), "the plan loads");
        dflt = new BlockPlacementPolicyDefault() {}; // its constructor is protected
        dflt.initialize(conf, null, NetworkTopology.getInstance(conf), null);
    }

    @AfterEach
    void stop() {
        cast.close();
    }

    /** The block's replicas plus the target, as the Balancer's dispatcher passes them. */
    private static List<DatanodeInfo> candidates(DatanodeInfo target, DatanodeInfo... replicas) {
        List<DatanodeInfo> c = new ArrayList<>(List.of(replicas));
        c.add(target);
        return c;
    }

    @Test
    void aBlockAllInAPlannedGroup_doesNotLeaveIt_butMovesInsideIt() {
        DatanodeInfo eph1 = node(1, "/eph");
        DatanodeInfo eph2 = node(2, "/eph");
        DatanodeInfo eph3 = node(3, "/eph");
        DatanodeInfo pers = node(4, "/pers");
        DatanodeInfo other = node(5, "/default-rack");
        assertFalse(cast.isMovable(candidates(pers, eph1, eph2), eph1, pers), "out of its group into another group");
        assertFalse(
                cast.isMovable(candidates(other, eph1, eph2), eph1, other), "out of its group to an unplanned rack");
        assertTrue(dflt.isMovable(candidates(pers, eph1, eph2), eph1, pers), "the default would move it");
        assertTrue(cast.isMovable(candidates(eph3, eph1, eph2), eph1, eph3), "inside its group");
    }

    @Test
    void otherBlocks_moveAsTheDefaultLetsThem() {
        DatanodeInfo eph1 = node(1, "/eph");
        DatanodeInfo eph2 = node(2, "/eph");
        DatanodeInfo pers1 = node(3, "/pers");
        DatanodeInfo pers2 = node(4, "/pers");
        DatanodeInfo other1 = node(5, "/default-rack");
        DatanodeInfo other2 = node(6, "/default-rack");
        DatanodeInfo other3 = node(7, "/default-rack");
        List<Object[]> moves = List.of(
                // spread over two racks (where the default puts an unplanned block)
                new Object[] {candidates(pers2, eph1, pers1), eph1, pers2},
                new Object[] {candidates(other2, eph1, other1), eph1, other2},
                new Object[] {candidates(eph2, other1, other2, pers1), other1, eph2},
                new Object[] {candidates(eph2, eph1, other1, other2), other1, eph2},
                // moves that would leave the block on one rack
                new Object[] {candidates(eph2, eph1, other1), other1, eph2},
                new Object[] {candidates(eph2, eph1, pers1), pers1, eph2},
                // all in one rack that no plan names
                new Object[] {candidates(eph1, other1, other2), other1, eph1},
                new Object[] {candidates(other3, other1, other2), other1, other3});
        int refused = 0;
        for (Object[] m : moves) {
            @SuppressWarnings("unchecked")
            List<DatanodeInfo> c = (List<DatanodeInfo>) m[0];
            DatanodeInfo source = (DatanodeInfo) m[1];
            DatanodeInfo target = (DatanodeInfo) m[2];
            assertEquals(
                    dflt.isMovable(c, source, target),
                    cast.isMovable(c, source, target),
                    source.getNetworkLocation() + " -> " + target.getNetworkLocation() + " of " + c);
            refused += dflt.isMovable(c, source, target) ? 0 : 1;
        }
        assertTrue(refused > 0 && refused < moves.size(), "the default allows some of these and refuses others");
    }

    @Test
    void withoutAPlan_everyBlockMovesAsTheDefaultLetsIt() throws Exception {
        cast.close();
        Files.writeString(
                Path.of("target", "movable-test", "plan.json"), "{\"schema\": \"locus-cast-plan/1\", \"tiers\": [");
        assertFalse(cast.reload(), "a corrupt plan");
        DatanodeInfo eph1 = node(1, "/eph");
        DatanodeInfo eph2 = node(2, "/eph");
        DatanodeInfo pers = node(4, "/pers");
        assertTrue(cast.isMovable(candidates(pers, eph1, eph2), eph1, pers));
    }

    @Test
    void theRule_onRackNames() {
        assertTrue(
                CastBlockPlacementPolicy.leavesPlannedGroup(List.of("/eph", "/eph"), "/eph", "/pers", "eph"::equals));
        assertFalse(
                CastBlockPlacementPolicy.leavesPlannedGroup(List.of("/eph", "/eph"), "/eph", "/eph", "eph"::equals));
        assertFalse(
                CastBlockPlacementPolicy.leavesPlannedGroup(List.of("/eph", "/pers"), "/eph", "/pers", "eph"::equals));
        assertFalse(CastBlockPlacementPolicy.leavesPlannedGroup(List.of("/x", "/x"), "/x", "/eph", "eph"::equals));
        assertFalse(CastBlockPlacementPolicy.leavesPlannedGroup(List.of(), "/eph", "/pers", "eph"::equals));
    }
}
