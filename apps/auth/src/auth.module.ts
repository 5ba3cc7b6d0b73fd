import { Module } from '@nestjs/common';
import { CallerResponder } from './callers/caller-responder';
import { CallersService } from './callers/callers.service';
import { CURRENCY_RATES } from './consumers/currency-rates.projection';
import { DELEGATIONS } from './consumers/delegation.projection';
import { CurrenciesController } from './currencies/currencies.controller';
import { CurrenciesService } from './currencies/currencies.service';
import { GROUPS, POSITIONS } from './consumers/settings.projection';
import { CallerChanges } from './core/caller-changes';
import { InvitationsController } from './invitations/invitations.controller';
import { InvitationsService } from './invitations/invitations.service';
import { PermissionKeysController } from './permission-keys/permission-keys.controller';
import { MAIL_OPTIONS, MailService, loadMailOptions, projectionConsumers } from '@ddm/platform';
import { RolesController } from './roles/roles.controller';
import { RolesService } from './roles/roles.service';
import { TenantSettingsController } from './tenant-settings/tenant-settings.controller';
import { TenantSettingsService } from './tenant-settings/tenant-settings.service';
import { TenantRefs } from './tenants/tenant-refs';
import { TenantsController } from './tenants/tenants.controller';
import { TenantsService } from './tenants/tenants.service';
import { UserRefs } from './users/user-refs';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';

@Module({
  // InvitationsController before UsersController: its static routes (create, bulk-*) are registered first.
  controllers: [InvitationsController, UsersController, CurrenciesController, TenantsController, TenantSettingsController, RolesController, PermissionKeysController],
  providers: [
    // Mail settings are read (and checked) when the module starts: a wrong value stops the service naming the variable.
    { provide: MAIL_OPTIONS, useFactory: () => loadMailOptions(process.env) },
    MailService,
    CallerChanges,
    CallersService,
    CallerResponder,
    UserRefs,
    TenantRefs,
    TenantsService,
    TenantSettingsService,
    RolesService,
    UsersService,
    CurrenciesService,
    InvitationsService,
    projectionConsumers(POSITIONS, GROUPS, DELEGATIONS, CURRENCY_RATES),
  ],
  exports: [TenantsService],
})
export class AuthModule {}
