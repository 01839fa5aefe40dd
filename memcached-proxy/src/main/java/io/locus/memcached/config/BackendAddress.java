package io.locus.memcached.config;

/**
 * One entry of {@code pool.servers}, written as in nutcracker: {@code host:port:weight [name]}.
 *
 * @param host IP or host name
 * @param port TCP port, 1..65535
 * @param weight relative weight on the ketama ring, >= 1
 * @param name optional ring name (nutcracker hashes it instead of the address), or null
 */
public record BackendAddress(String host, int port, int weight, String name) {
    @Override
    public String toString() {
        return host + ":" + port + ":" + weight + (name == null ? "" : " " + name);
    }
}
