/** Data-table component: table definitions, the public insert, the agent's TablePort. */
export {
  createTablesComponent,
  type TablesComponent,
  type TablesDeps,
  type TablesOptions,
} from './tables-component.js';
export { TablesService } from './tables-service.js';
export type { ColumnDef, ColumnType, TableAccess, TableDefinition } from './tables-schemas.js';
