/**
 * The public skill-group import: checks the request as a whole (type, the accountId/orgId/type that
 * the query, the `accountId` header and `metaData` each carry, every member of every group with its
 * path), then stores the groups per (app, accountId, orgId) and indexes them by id.
 */
import { AppError, type Logger } from '../platform/index.js';
import type { AppsService } from '../admin/index.js';
import { bracketPath, importBodySchema, type ImportBody, type SkillGroup } from './assist-schemas.js';
import { AssistRepository } from './assist-repository.js';
import { importType, KIND_LABELS, SUPPORTED_KINDS } from './import-type.js';

type Problem = { msg: string; path: string };

export interface ImportRequest {
  streamId: string;
  query: { accountId: string; orgId: string; type: string };
  headerAccountId: string | undefined;
  body: unknown;
}

const TYPE_NAMES = Object.values(KIND_LABELS).join(', ');

/** 400 for a type that is unknown or not supported yet; null for skillGroups. */
function typeProblem(type: string, path: string): Problem | null {
  const kind = importType(type);
  if (!kind) return { msg: `unknown type ${type}; the importable types are ${TYPE_NAMES}`, path };
  if (!SUPPORTED_KINDS.has(kind))
    return {
      msg: `import of ${KIND_LABELS[kind]} is not supported yet; only skillGroups can be imported`,
      path,
    };
  return null;
}

function duplicateProblems(data: SkillGroup[]): Problem[] {
  const problems: Problem[] = [];
  const groups = new Map<string, number>();
  data.forEach((g, i) => {
    const first = groups.get(g._id);
    if (first !== undefined)
      problems.push({
        msg: `duplicate skill group id (same as body.data[${first}]._id)`,
        path: `body.data[${i}]._id`,
      });
    else groups.set(g._id, i);
    const skills = new Map<string, number>();
    (g.skills ?? []).forEach((s, k) => {
      const firstSkill = skills.get(s._id);
      if (firstSkill !== undefined)
        problems.push({
          msg: `duplicate skill id (same as body.data[${i}].skills[${firstSkill}]._id)`,
          path: `body.data[${i}].skills[${k}]._id`,
        });
      else skills.set(s._id, k);
    });
  });
  return problems;
}

function agreementProblems(req: ImportRequest, body: ImportBody): Problem[] {
  const problems: Problem[] = [];
  const { accountId, orgId } = req.query;
  const meta = body.metaData;
  if (req.headerAccountId !== undefined && req.headerAccountId !== accountId) {
    problems.push({
      msg: 'the accountId header must equal the query accountId (and body.metaData.accountId)',
      path: 'headers.accountId',
    });
  }
  if (meta.accountId !== accountId) {
    problems.push({
      msg: 'body.metaData.accountId must equal the query accountId (and the accountId header)',
      path: 'body.metaData.accountId',
    });
  }
  if (meta.orgId !== orgId)
    problems.push({ msg: 'body.metaData.orgId must equal the query orgId', path: 'body.metaData.orgId' });
  const metaType = typeProblem(meta.type, 'body.metaData.type');
  if (metaType) problems.push(metaType);
  else if (importType(meta.type) !== importType(req.query.type)) {
    problems.push({
      msg: 'body.metaData.type must equal the query type (skillGroups)',
      path: 'body.metaData.type',
    });
  }
  return problems;
}

export class AssistService {
  constructor(
    private readonly repo: AssistRepository,
    private readonly apps: AppsService,
    private readonly logger: Logger,
  ) {}

  async importFunctionalities(req: ImportRequest): Promise<{ msg: string }> {
    await this.apps.requireApp(req.streamId);
    const queryType = typeProblem(req.query.type, 'query.type');
    if (queryType) throw AppError.validation([queryType]);
    const problems: Problem[] = [];
    if (!req.headerAccountId)
      problems.push({ msg: 'the accountId header is required', path: 'headers.accountId' });
    const parsed = importBodySchema.safeParse(req.body);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map((i) => ({ msg: i.message, path: bracketPath(['body', ...i.path]) })),
      );
      throw AppError.validation(problems);
    }
    problems.push(...agreementProblems(req, parsed.data), ...duplicateProblems(parsed.data.data));
    if (problems.length) throw AppError.validation(problems);
    const { accountId, orgId } = req.query;
    const groups = parsed.data.data;
    await this.repo.saveSkillGroups(req.streamId, accountId, orgId, groups);
    this.logger.info(
      { streamId: req.streamId, accountId, orgId, count: groups.length },
      'skill groups imported',
    );
    return { msg: `${groups.length} skill group${groups.length === 1 ? '' : 's'} imported successfully` };
  }

  /** What the import stored for (app, accountId, orgId), by name then id; 404 for an unknown app. */
  async readBack(streamId: string, accountId: string, orgId: string) {
    await this.apps.requireApp(streamId);
    const groups = await this.repo.listSkillGroups(streamId, accountId, orgId);
    groups.sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id));
    return { streamId, accountId, orgId, skillGroups: groups, total: groups.length };
  }

  async findSkillGroup(streamId: string, skillGroupId: string): Promise<{ id: string; name: string } | null> {
    const entry = await this.repo.findIndexEntry(streamId, skillGroupId);
    return entry ? { id: skillGroupId, name: entry.name } : null;
  }

  listSkillGroupIds(streamId: string): Promise<string[]> {
    return this.repo.listIds(streamId);
  }
}
