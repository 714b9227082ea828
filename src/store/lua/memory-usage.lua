--[[
  MEMORY USAGE of one key. A script, so that a Cluster client routes it by its key: ioredis cannot
  find the key of MEMORY USAGE and would send it to any node (MOVED).

  Input:
    KEYS[1]  any key

  Output:
    its size in bytes, or nil when it is missing
]]
return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')
