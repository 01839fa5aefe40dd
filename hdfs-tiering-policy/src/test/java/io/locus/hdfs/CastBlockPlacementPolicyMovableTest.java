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
    private static final DatanodeInfo EPH1 = node(1, "/eph");
    private static final DatanodeInfo EPH2 = node(2, "/eph");
    private static final DatanodeInfo EPH3 = node(3, "/eph");
    private static final DatanodeInfo PERS1 = node(4, "/pers");
    private static final DatanodeInfo PERS2 = node(5, "/pers");
    private static final DatanodeInfo OTHER1 = node(6, "/default-rack");
    private static final DatanodeInfo OTHER2 = node(7, "/default-rack");
    private static final DatanodeInfo OTHER3 = node(8, "/default-rack");

    private CastBlockPlacementPolicy cast;
    private BlockPlacementPolicyDefault dflt;

    /** A move the Balancer asks about: the block's replicas, the source and the target. */
    private record Move(List<DatanodeInfo> replicas, DatanodeInfo source, DatanodeInfo target) {
        Move(DatanodeInfo source, DatanodeInfo target, DatanodeInfo... replicas) {
            this(List.of(replicas), source, target);
        }

        /** The block's replicas plus the target, as the Balancer's dispatcher passes them. */
        List<DatanodeInfo> candidates() {
            List<DatanodeInfo> c = new ArrayList<>(replicas);
            c.add(target);
            return c;
        }

        boolean allowedBy(BlockPlacementPolicyDefault policy) {
            return policy.isMovable(candidates(), source, target);
        }

        @Override
        public String toString() {
            return source.getNetworkLocation() + " -> " + target.getNetworkLocation() + " of "
                    + replicas.stream().map(DatanodeInfo::getNetworkLocation).toList();
        }
    }

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

    @Test
    void aBlockAllInAPlannedGroup_doesNotLeaveIt_butMovesInsideIt() {
        assertFalse(new Move(EPH1, PERS1, EPH1, EPH2).allowedBy(cast), "out of its group into another group");
        assertFalse(new Move(EPH1, OTHER1, EPH1, EPH2).allowedBy(cast), "out of its group to an unplanned rack");
        assertTrue(new Move(EPH1, PERS1, EPH1, EPH2).allowedBy(dflt), "the default would move it");
        assertTrue(new Move(EPH1, EPH3, EPH1, EPH2).allowedBy(cast), "inside its group");
    }

    @Test
    void otherBlocks_moveAsTheDefaultLetsThem() {
        List<Move> moves = List.of(
                // spread over two racks (where the default puts an unplanned block)
                new Move(EPH1, PERS2, EPH1, PERS1),
                new Move(EPH1, OTHER2, EPH1, OTHER1),
                new Move(OTHER1, EPH2, OTHER1, OTHER2, PERS1),
                new Move(OTHER1, EPH2, EPH1, OTHER1, OTHER2),
                // moves that would leave the block on one rack
                new Move(OTHER1, EPH2, EPH1, OTHER1),
                new Move(PERS1, EPH2, EPH1, PERS1),
                // all in one rack that no plan names
                new Move(OTHER1, EPH1, OTHER1, OTHER2),
                new Move(OTHER1, OTHER3, OTHER1, OTHER2));
        int refused = 0;
        for (Move m : moves) {
            assertEquals(m.allowedBy(dflt), m.allowedBy(cast), m.toString());
            refused += m.allowedBy(dflt) ? 0 : 1;
        }
        assertTrue(refused > 0 && refused < moves.size(), "the default allows some of these and refuses others");
    }

    @Test
    void withoutAPlan_everyBlockMovesAsTheDefaultLetsIt() throws Exception {
        cast.close();
        Files.writeString(
                Path.of("target", "movable-test", "plan.json"), "{\"schema\": \"locus-cast-plan/1\", \"tiers\": [");
        assertFalse(cast.reload(), "a corrupt plan");
        assertTrue(new Move(EPH1, PERS1, EPH1, EPH2).allowedBy(cast));
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
