--[[
  Takes one of `max` slots in a sorted set of members scored by their expiry (ms since epoch),
  pruning expired members first; re-acquiring a held member refreshes its expiry.

  Input:
    KEYS[1]  the slot sorted set
    ARGV[1]  member
    ARGV[2]  the member's expiry, ms since epoch
    ARGV[3]  max slots
    ARGV[4]  now, ms since epoch

  Output:
    {acquired 0|1, slots in use}
]]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  return {1, redis.call('ZCARD', KEYS[1])}
end
return {0, redis.call('ZCARD', KEYS[1])}
