--[[
  Applies a list of writes all-or-nothing after checking its guards (the store port's `atomic`).
  Numbers travel as strings, so Lua never turns a millisecond timestamp into a float.

  Input:
    KEYS[1..n]  every key the change touches (one hash slot on a Cluster)
    ARGV[1]     the number of guards
    ARGV[2..]   each guard, then each op: a code, the 1-based KEYS index of its key, its arguments
      guards: a k (key absent) | x k (key exists) | e k v (string equals) |
              h k f (hash field absent) | H k f v (hash field equals)
      ops:    s k v (SET) | S k v ms (SET PX) | d k (DEL) | h k n f1 v1 ... (HSET, n args) |
              D k n f1 ... (HDEL, n args) | i k f by (HINCRBY) | z k score member (ZADD) |
              r k m (ZREM) | a k m (SADD) | m k m (SREM) | I k by (INCRBY) | p k ms (PEXPIRE) |
              L k v keep (RPUSH, then LTRIM to the last `keep`) | Y k min max (ZREMRANGEBYSCORE) |
              X k maxlen n f1 v1 ... (XADD MAXLEN ~ maxlen *, n args)

  Output:
    0 when every write applied, else the 1-based index of the first failed guard (nothing written)
]]
return apply_encoded(1)
