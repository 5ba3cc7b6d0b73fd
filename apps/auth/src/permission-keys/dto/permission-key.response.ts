import { ApiProperty } from '@nestjs/swagger';
import { ALL_PERMISSION_KEYS, PERMISSION_KEYS } from '@ddm/contracts';

export class PermissionKeyView {
  @ApiProperty({ enum: ALL_PERMISSION_KEYS, example: 'manage:users' }) relationshipKeyName: string;
  @ApiProperty() description: string;
}

/** The catalogue as answered (built once: it is constant). */
export const PERMISSION_KEY_VIEWS: readonly PermissionKeyView[] = ALL_PERMISSION_KEYS.map((k) => ({ relationshipKeyName: k, description: PERMISSION_KEYS[k] }));
